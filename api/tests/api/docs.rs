//! The guides against the code, with no server: every `ROADIE_*` variable the code reads is in
//! docs/operating.md's configuration table and the table names no other; every relative link of
//! README.md and docs/*.md leads to a file and, with a `#anchor`, to a heading of it; and every
//! fenced block says whether it runs (`sh`, run by `api/tests/e2e/readme.rs`) or is an example.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The fence labels a guide may use: `sh` runs; the others are examples (docs/README.md).
const FENCES: &[&str] = &[
    "sh", "console", "text", "python", "ts", "js", "rust", "lua", "json", "toml",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn files(dir: &Path, extension: &str, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files(&path, extension, out);
        } else if path.extension().is_some_and(|e| e == extension) {
            out.push(path);
        }
    }
    out.sort();
}

/// README.md and every docs/*.md.
fn guides() -> Vec<PathBuf> {
    let mut docs = Vec::new();
    for entry in std::fs::read_dir(root().join("docs")).expect("docs/") {
        let path = entry.expect("an entry of docs/").path();
        if path.extension().is_some_and(|e| e == "md") {
            docs.push(path);
        }
    }
    docs.sort();
    let mut all = vec![root().join("README.md")];
    all.extend(docs);
    all
}

/// `source` without the `#[cfg(test)]` modules (from the attribute to the module's closing brace),
/// whose variables only tests read.
fn without_test_modules(source: &str) -> String {
    let mut kept = String::new();
    let mut lines = source.lines().peekable();
    while let Some(line) = lines.next() {
        let opens_test_module = line.trim() == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod ") && next.trim_end().ends_with('{'));
        if !opens_test_module {
            kept.push_str(line);
            kept.push('\n');
            continue;
        }
        let mut depth = 0i64;
        for inner in lines.by_ref() {
            depth += braces(inner);
            if depth <= 0 && inner.contains('}') {
                break;
            }
        }
    }
    kept
}

/// `{` minus `}` on a line of Rust, outside string and char literals and comments.
fn braces(line: &str) -> i64 {
    let mut count = 0;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => break,
            '"' => {
                while let Some(s) = chars.next() {
                    match s {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '\'' => {
                // A char literal ('{', '\''), or a lifetime ('a), which has no closing quote.
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with('\\') {
                    chars.nth(2);
                } else if rest.chars().nth(1) == Some('\'') {
                    chars.nth(1);
                }
            }
            '{' => count += 1,
            '}' => count -= 1,
            _ => {}
        }
    }
    count
}

/// The `ROADIE_*` names that appear as whole string literals in `source`.
fn quoted_names(source: &str, file: &Path, out: &mut BTreeMap<String, PathBuf>) {
    let mut rest = source;
    while let Some(at) = rest.find("\"ROADIE_") {
        let after = &rest[at + 1..];
        let end = after
            .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(after.len());
        let name = &after[..end];
        if after[end..].starts_with('"') {
            assert!(
                !name.ends_with('_'),
                "{}: the literal {name:?} looks like the start of a name built at run time; \
                 this check reads whole names only, so write each name out",
                file.display()
            );
            out.entry(name.to_owned()).or_insert_with(|| file.to_owned());
        }
        rest = &after[end..];
    }
}

/// The `ROADIE_*` variables the service reads: every whole `"ROADIE_..."` literal in `api/src`
/// and `engine/src` outside test modules (config.rs reads each by its literal name).
fn variables_read() -> BTreeMap<String, PathBuf> {
    let mut sources = Vec::new();
    files(&root().join("api/src"), "rs", &mut sources);
    files(&root().join("engine/src"), "rs", &mut sources);
    let mut names = BTreeMap::new();
    for file in &sources {
        let text = read(file);
        assert!(
            !(text.contains("concat!(\"ROADIE_") || text.contains("format!(\"ROADIE_")),
            "{}: a ROADIE_* name built by a macro; this check reads whole names only",
            file.display()
        );
        quoted_names(&without_test_modules(&text), file, &mut names);
    }
    names
}

/// The `ROADIE_*` names in the first column of operating.md's configuration table.
fn variables_documented() -> BTreeSet<String> {
    let text = read(&root().join("docs/operating.md"));
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with("Configuration\n"))
        .expect("docs/operating.md has a `## Configuration` section");
    let mut names = BTreeSet::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let first_cell = line.split(" | ").next().unwrap_or_default();
        for (i, part) in first_cell.split('`').enumerate() {
            if i % 2 == 1 && part.starts_with("ROADIE_") {
                names.insert(part.to_owned());
            }
        }
    }
    names
}

#[test]
fn the_configuration_table_names_every_variable_the_code_reads_and_no_other() {
    let read = variables_read();
    let documented = variables_documented();
    assert!(
        read.len() >= 40,
        "too few ROADIE_* variables found in the code: {read:?}"
    );
    let missing: Vec<String> = read
        .iter()
        .filter(|(name, _)| !documented.contains(*name))
        .map(|(name, file)| format!("{name} (read in {})", file.display()))
        .collect();
    let unread: Vec<&String> = documented
        .iter()
        .filter(|name| !read.contains_key(*name))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/operating.md's configuration table lacks {missing:?}"
    );
    assert!(
        unread.is_empty(),
        "docs/operating.md's configuration table names variables the code does not read: {unread:?}"
    );
}

#[test]
fn the_variable_check_finds_literals_and_skips_test_modules() {
    let source = "fn f() { get(\"ROADIE_A\"); let s = \"ROADIE_B is unset\"; }\n\
                  #[cfg(test)]\nmod tests {\n    fn g() { let _ = '{'; get(\"ROADIE_TEST_ONLY\"); }\n}\n\
                  fn h() { number(\"ROADIE_C\", 1); }\n";
    let mut names = BTreeMap::new();
    quoted_names(&without_test_modules(source), Path::new("x.rs"), &mut names);
    assert_eq!(names.keys().collect::<Vec<_>>(), ["ROADIE_A", "ROADIE_C"]);
}

/// `text` without fenced blocks and inline code, where a `](` is not a link.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if fenced {
            out.push('\n');
            continue;
        }
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                out.push_str(part);
            }
        }
        out.push('\n');
    }
    out
}

/// A heading's anchor as GitHub makes it: lower case, spaces as `-`, other punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// Every anchor a Markdown file's headings make, numbered as GitHub numbers repeats.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let heading = line.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let base = slug(heading);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// The targets of the inline links and images of `text`'s prose: `[...](target)`.
fn link_targets(text: &str) -> Vec<String> {
    let prose = prose(text);
    let mut out = Vec::new();
    let mut rest = prose.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        out.push(after[..end].trim().to_owned());
        rest = &after[end..];
    }
    out
}

#[test]
fn every_relative_link_of_the_guides_leads_somewhere() {
    let mut dead = Vec::new();
    let mut checked = 0;
    for guide in guides() {
        let text = read(&guide);
        let dir = guide.parent().expect("a folder");
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = target.split_once('#').unwrap_or((target.as_str(), ""));
            let path = if file.is_empty() {
                guide.clone()
            } else {
                dir.join(file)
            };
            let name = guide.strip_prefix(root()).unwrap_or(&guide).display().to_string();
            if !path.exists() {
                dead.push(format!("{name}: {target}: no such file"));
                continue;
            }
            if anchor.is_empty() {
                continue;
            }
            if path.extension().is_none_or(|e| e != "md") {
                dead.push(format!(
                    "{name}: {target}: an anchor into a file that is not Markdown"
                ));
            } else if !anchors(&read(&path)).contains(anchor) {
                dead.push(format!("{name}: {target}: no heading makes #{anchor}"));
            }
        }
    }
    assert!(
        checked >= 50,
        "only {checked} relative links found: is the scan broken?"
    );
    assert!(dead.is_empty(), "dead links:\n{}", dead.join("\n"));
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let text = "# Roadie\n## Learning a game: rules, `component` texts\n```sh\n# not a heading\n```\n\
                ## Matchmaking\n### Matchmaking\n## ETags, retries and idempotency\n";
    let made = anchors(text);
    for anchor in [
        "roadie",
        "learning-a-game-rules-component-texts",
        "matchmaking",
        "matchmaking-1",
        "etags-retries-and-idempotency",
    ] {
        assert!(made.contains(anchor), "{anchor} not in {made:?}");
    }
    assert!(!made.contains("not-a-heading"));
    assert_eq!(
        link_targets("[a](b.md#c) and `[x](not-a-link)` ![p](web/p.png)"),
        ["b.md#c", "web/p.png"]
    );
}

#[test]
fn every_fenced_block_says_whether_it_runs() {
    let mut unlabelled = Vec::new();
    for guide in guides() {
        let mut fenced = false;
        for (number, line) in read(&guide).lines().enumerate() {
            let Some(label) = line.trim_start().strip_prefix("```") else {
                continue;
            };
            if !fenced && !FENCES.contains(&label.trim()) {
                unlabelled.push(format!("{}:{}: ```{label}", guide.display(), number + 1));
            }
            fenced = !fenced;
        }
        assert!(!fenced, "{}: a fenced block is not closed", guide.display());
    }
    assert!(
        unlabelled.is_empty(),
        "fenced blocks must be `sh` (run by api/tests/e2e/readme.rs) or one of {FENCES:?} (not run):\n{}",
        unlabelled.join("\n")
    );
}
