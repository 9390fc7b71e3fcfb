// What the two consumer programs (fetch/play.ts, axios/play.ts) share and that does not depend on
// the generated client: failing, a seeded choice, the seed commitment and the command line.

import { createHash } from "node:crypto";

/** Actions posted per game before a game that has not ended counts as a failure. */
export const MAX_STEPS = 20_000;

/** Ends the program with `message` (exit status 1). */
export function fail(message: string): never {
  console.error(`play: ${message}`);
  process.exit(1);
}

/** The base URL and the seed from the command line: `play.js BASE_URL [SEED]`. */
export function args(): { base: string; seed: number } {
  const base = process.argv[2];
  if (!base) fail("usage: play.js BASE_URL [SEED]");
  const seed = Number(process.argv[3] ?? "7");
  if (!Number.isSafeInteger(seed) || seed < 0) fail(`the seed ${process.argv[3]} is not a whole number`);
  return { base, seed };
}

/** A seeded generator (mulberry32): the same seed chooses the same actions. */
export class Chooser {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A whole number below `n` (n > 0). */
  below(n: number): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n) >>> 0;
  }
}

/** hex(SHA-256(`<salt>:<seed>`)): what a game publishes as its `seed_commitment`. */
export function commitment(salt: string, seed: number): string {
  return createHash("sha256").update(`${salt}:${seed}`).digest("hex");
}

/** Fails unless `seqs` is 1, 2, 3... : a finished game's log has no gaps. */
export function checkSequence(slug: string, seqs: number[]): void {
  seqs.forEach((seq, i) => {
    if (seq !== i + 1) fail(`${slug}: the finished game's log has a gap at ${i + 1} (seq ${seq})`);
  });
}
