//! Every game folder follows one template (`games/mod.rs` describes it): the same file names for
//! the same concepts, so that a reader who knows one game finds anything in another.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// What every game folder holds: `(name, is a folder)`.
const REQUIRED: &[(&str, bool)] = &[
    ("mod.rs", false),
    ("state.rs", false),
    ("setup.rs", false),
    ("actions.rs", false),
    ("rules", true),
    ("events.rs", false),
    ("view.rs", false),
    ("scoring.rs", false),
    ("machine.rs", false),
    ("invariants.rs", false),
    ("bot.rs", false),
    ("scenario.rs", false),
    ("determinize.rs", false),
    ("components.rs", false),
    ("RULES.md", false),
    ("texts.rs", false),
    ("tests", true),
];

/// What a game folder may hold besides, and why it is not in every game.
const OPTIONAL: &[(&str, bool, &str)] = &[(
    "components.json",
    false,
    "the component tables as data, for a game with more cards than Rust constants keep \
         readable; `components.rs` reads it",
)];

/// Top-level items `mod.rs` may hold besides `impl Game`: module declarations and re-exports.
fn allowed_in_mod_rs(line: &str) -> bool {
    let item = line.trim_start_matches("pub ");
    line.is_empty()
        || line.starts_with(' ')
        || line.starts_with("//")
        || line.starts_with("#[cfg(test)]")
        || line.starts_with('}')
        || item.starts_with("mod ")
        || item.starts_with("use ")
        || line.starts_with("impl Game for ")
}

fn entries(folder: &Path) -> BTreeSet<(String, bool)> {
    fs::read_dir(folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path().is_dir()))
        .collect()
}

/// What the game folder `name`, holding `held`, lacks of the template or holds beyond it.
fn off_template(name: &str, held: &BTreeSet<(String, bool)>) -> Vec<String> {
    let mut wrong = Vec::new();
    for (file, dir) in REQUIRED {
        if !held.contains(&(file.to_string(), *dir)) {
            let kind = if *dir { "folder" } else { "file" };
            wrong.push(format!("{name}: no {kind} {file}"));
        }
    }
    for (file, dir) in held {
        let known = REQUIRED.iter().any(|(f, d)| f == file && d == dir)
            || OPTIONAL.iter().any(|(f, d, _)| f == file && d == dir);
        if !known {
            wrong.push(format!("{name}: {file} is not in the template"));
        }
    }
    wrong
}

#[test]
fn every_game_folder_has_the_same_template() {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
    let mut folders = 0;
    let mut wrong = Vec::new();
    for (name, is_dir) in entries(&games) {
        if !is_dir {
            continue;
        }
        folders += 1;
        let folder = games.join(&name);
        wrong.extend(off_template(&name, &entries(&folder)));
        for sub in ["rules", "tests"] {
            if !folder.join(sub).join("mod.rs").is_file() {
                wrong.push(format!("{name}: {sub}/ has no mod.rs"));
            }
        }
        let mod_rs = fs::read_to_string(folder.join("mod.rs")).unwrap_or_default();
        let impls = mod_rs.lines().filter(|l| l.starts_with("impl ")).count();
        if impls != 1 || !mod_rs.lines().any(|l| l.starts_with("impl Game for ")) {
            wrong.push(format!(
                "{name}: mod.rs holds {impls} impl blocks, not one `impl Game`"
            ));
        }
        for line in mod_rs.lines().filter(|l| !allowed_in_mod_rs(l)) {
            wrong.push(format!(
                "{name}: mod.rs holds more than modules and `impl Game`: {line}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert_eq!(folders, crate::RULESETS.len(), "one folder per registered game");
}

#[test]
fn a_folder_off_the_template_is_caught() {
    assert!(allowed_in_mod_rs("pub mod view;"));
    assert!(allowed_in_mod_rs("pub use state::ShowBusiness;"));
    assert!(allowed_in_mod_rs("    fn seat_count(&self) -> usize {"));
    assert!(!allowed_in_mod_rs("fn helper() {}"));
    assert!(!allowed_in_mod_rs("pub struct Extra;"));
    assert!(!allowed_in_mod_rs("impl ShowBusiness {"));
}

#[test]
fn a_game_folder_without_its_scenario_builder_or_bot_is_caught() {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
    let held = entries(&games.join("shrewd_producer"));
    assert_eq!(off_template("shrewd_producer", &held), Vec::<String>::new());
    for file in ["scenario.rs", "bot.rs"] {
        let mut without = held.clone();
        without.remove(&(file.to_owned(), false));
        assert_eq!(
            off_template("shrewd_producer", &without),
            [format!("shrewd_producer: no file {file}")]
        );
    }
}
