//! CPU time of processes on this machine, read from `/proc`: the server's, the store's and the
//! generator's own, before and after the play phase, so a run can report each one's CPU per
//! posted action.

use std::time::Duration;

use serde::Serialize;

/// `AT_CLKTCK` in the ELF auxiliary vector: the kernel's clock ticks per second, the value
/// `sysconf(_SC_CLK_TCK)` (and so `getconf CLK_TCK`) answers.
const AT_CLKTCK: usize = 17;

/// What `sysconf(_SC_CLK_TCK)` falls back to when the auxiliary vector has no `AT_CLKTCK`:
/// Linux's `USER_HZ`, which `/proc` counts in on every architecture.
const FALLBACK_TICKS_PER_SECOND: u64 = 100;

/// Clock ticks per second of `/proc/PID/stat`'s times, as `getconf CLK_TCK` reports it: read
/// from this process's auxiliary vector (`/proc/self/auxv`), else 100.
pub fn ticks_per_second() -> u64 {
    std::fs::read("/proc/self/auxv")
        .ok()
        .and_then(|auxv| clock_ticks_in_auxv(&auxv))
        .filter(|&ticks| ticks > 0)
        .unwrap_or(FALLBACK_TICKS_PER_SECOND)
}

/// The `AT_CLKTCK` entry of an auxiliary vector: pairs of native words, key then value.
fn clock_ticks_in_auxv(auxv: &[u8]) -> Option<u64> {
    const WORD: usize = size_of::<usize>();
    let word = |bytes: &[u8]| usize::from_ne_bytes(bytes.try_into().unwrap_or([0; WORD]));
    auxv.chunks_exact(2 * WORD)
        .map(|pair| (word(&pair[..WORD]), word(&pair[WORD..])))
        .take_while(|&(key, _)| key != 0)
        .find(|&(key, _)| key == AT_CLKTCK)
        .and_then(|(_, value)| u64::try_from(value).ok())
}

/// Whose CPU is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Process {
    /// `/proc/self`: the generator.
    This,
    Pid(u32),
}

impl Process {
    fn stat_path(self) -> String {
        match self {
            Process::This => "/proc/self/stat".to_owned(),
            Process::Pid(pid) => format!("/proc/{pid}/stat"),
        }
    }

    /// User plus system time of every thread of the process so far, in clock ticks.
    pub fn ticks(self) -> Result<u64, String> {
        let path = self.stat_path();
        let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
        user_plus_system_ticks(&text).ok_or_else(|| format!("{path} has no utime and stime"))
    }
}

/// Fields 14 (`utime`) and 15 (`stime`) of a `/proc/PID/stat` line, summed. They count every
/// thread of the process, living or ended, but not its children. Field 2, the command name in
/// parentheses, may hold spaces and parentheses, so the fields are counted after its last `)`.
fn user_plus_system_ticks(stat: &str) -> Option<u64> {
    let (_, after_name) = stat.rsplit_once(')')?;
    // After the name come field 3 (state) onwards, so field n is at index n - 3.
    let mut fields = after_name.split_ascii_whitespace().skip(14 - 3);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(utime + stime)
}

/// The CPU of one process over the play phase.
#[derive(Clone, Copy, Debug)]
pub struct Meter {
    process: Process,
    before: u64,
}

impl Meter {
    /// Starts measuring `process`; fails when its `/proc` entry cannot be read.
    pub fn start(process: Process) -> Result<Self, String> {
        Ok(Self {
            process,
            before: process.ticks()?,
        })
    }

    /// The CPU time the process used since [`Meter::start`].
    pub fn used(&self, ticks_per_second: u64) -> Result<Duration, String> {
        let ticks = self.process.ticks()?.saturating_sub(self.before);
        Ok(Duration::from_secs_f64(
            ticks as f64 / ticks_per_second.max(1) as f64,
        ))
    }
}

/// What the server, the store and the generator spent on the play phase; the server's and the
/// store's only when their pids were given.
#[derive(Debug, Default, Serialize)]
pub struct CpuSummary {
    /// Clock ticks per second of `/proc`'s times: one tick is their resolution.
    pub clock_ticks_per_second: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_pid: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_seconds: Option<f64>,
    /// The server's CPU microseconds per accepted posted action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_us_per_action: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub store_pid: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub store_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub store_us_per_action: Option<f64>,
    pub generator_seconds: f64,
    pub generator_us_per_action: f64,
}

/// The meters of one run, started just before the play phase.
pub struct Meters {
    ticks_per_second: u64,
    server: Option<(u32, Meter)>,
    store: Option<(u32, Meter)>,
    generator: Meter,
}

impl Meters {
    pub fn start(server_pid: Option<u32>, store_pid: Option<u32>) -> Result<Self, String> {
        let meter = |pid: Option<u32>| {
            pid.map(|pid| Meter::start(Process::Pid(pid)).map(|m| (pid, m)))
                .transpose()
        };
        Ok(Self {
            ticks_per_second: ticks_per_second(),
            server: meter(server_pid)?,
            store: meter(store_pid)?,
            generator: Meter::start(Process::This)?,
        })
    }

    /// Reads every meter again and divides by `actions`; a process that can no longer be read
    /// (it exited) is an error, since its CPU would be missing from the figures.
    pub fn finish(&self, actions: u64) -> Result<CpuSummary, String> {
        let tps = self.ticks_per_second;
        let per_action = |used: Duration| used.as_secs_f64() * 1e6 / actions.max(1) as f64;
        let generator = self.generator.used(tps)?;
        let mut summary = CpuSummary {
            clock_ticks_per_second: tps,
            generator_seconds: generator.as_secs_f64(),
            generator_us_per_action: per_action(generator),
            ..CpuSummary::default()
        };
        if let Some((pid, meter)) = &self.server {
            let used = meter.used(tps)?;
            summary.server_pid = Some(*pid);
            summary.server_seconds = Some(used.as_secs_f64());
            summary.server_us_per_action = Some(per_action(used));
        }
        if let Some((pid, meter)) = &self.store {
            let used = meter.used(tps)?;
            summary.store_pid = Some(*pid);
            summary.store_seconds = Some(used.as_secs_f64());
            summary.store_us_per_action = Some(per_action(used));
        }
        Ok(summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utime_and_stime_are_counted_after_the_last_parenthesis_of_the_name() {
        let stat = "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 31 0 0 20 0 9 0 77 0 0";
        assert_eq!(user_plus_system_ticks(stat), Some(281));
        assert_eq!(user_plus_system_ticks("4242 (roadie) S 1 2"), None);
    }

    #[test]
    fn the_clock_tick_rate_is_the_auxiliary_vectors_entry() {
        let mut auxv = Vec::new();
        for word in [6usize, 4096, AT_CLKTCK, 250, 0, 0] {
            auxv.extend_from_slice(&word.to_ne_bytes());
        }
        assert_eq!(clock_ticks_in_auxv(&auxv), Some(250));
        assert_eq!(clock_ticks_in_auxv(&auxv[..2 * size_of::<usize>()]), None);
    }

    #[test]
    fn this_process_has_a_readable_cpu_time_and_tick_rate() {
        assert!(ticks_per_second() > 0);
        assert!(Process::This.ticks().is_ok());
        assert!(Process::Pid(std::process::id()).ticks().is_ok());
    }
}
