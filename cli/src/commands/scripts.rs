//! `deckhand scripts`: read the scripts built into the binary, which error
//! messages name (`scripts/sea_change/game.lua:331`) but an installed
//! deckhand has no files of: list them, print one, or write them all to a
//! folder to read, edit and play with `--scripts DIR`.

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct ScriptsArgs {
    #[command(subcommand)]
    pub action: ScriptsAction,
}

#[derive(Subcommand, Debug)]
pub enum ScriptsAction {
    /// List every built-in script by its path (as error messages name it).
    List,
    /// Print a built-in script: a path such as sea_change/game.lua (as an error names it, `scripts/` and `:LINE` included), or a game id for its game.lua.
    Show {
        /// A path from `deckhand scripts list`, or a game id.
        path: String,
    },
    /// Write every built-in script into a folder (created if needed), to read, edit and play with `--scripts DIR`.
    Export {
        /// The folder to write into.
        dir: PathBuf,
        /// Overwrite files that are already there (otherwise nothing is written).
        #[arg(long)]
        force: bool,
    },
}

pub fn run(args: &ScriptsArgs) -> Result<()> {
    let files = crate::scripts::built_in_files();
    match &args.action {
        ScriptsAction::List => {
            for path in files.keys() {
                outln!("{path}");
            }
            Ok(())
        }
        ScriptsAction::Show { path } => show(&files, path),
        ScriptsAction::Export { dir, force } => export(&files, dir, *force),
    }
}

/// The built-in file that `name` means: its path (with or without the
/// `scripts/` an error message puts before it, and a `:LINE` after it),
/// or a game id, for its `game.lua`.
fn find<'f>(files: &'f BTreeMap<String, &'static [u8]>, name: &str) -> Option<&'f str> {
    let mut name = name.trim().trim_start_matches("./").replace('\\', "/");
    if let Some((file, line)) = name.rsplit_once(':') {
        if !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()) {
            name = file.to_string();
        }
    }
    let bare = name.strip_prefix("scripts/").unwrap_or(&name);
    let game = format!("{}/game.lua", bare.trim_end_matches('/'));
    let found = [name.as_str(), bare, game.as_str()]
        .into_iter()
        .find_map(|candidate| files.get_key_value(candidate).map(|(k, _)| k.as_str()));
    found
}

fn show(files: &BTreeMap<String, &'static [u8]>, name: &str) -> Result<()> {
    let Some(path) = find(files, name) else {
        // A file name alone (team.lua) may be the end of a path.
        let tail = format!("/{}", name.trim().trim_start_matches('/'));
        let near: Vec<&str> = files
            .keys()
            .filter(|k| k.ends_with(&tail))
            .map(String::as_str)
            .collect();
        let hint = if near.is_empty() {
            String::new()
        } else {
            format!(" (did you mean {}?)", near.join(" or "))
        };
        bail!(
            "no built-in script '{name}'{hint}: `deckhand scripts list` lists them, and a game id \
             shows its game.lua"
        );
    };
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(files[path]).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return Ok(());
        }
        return Err(e).context("printing the script");
    }
    Ok(())
}

fn export(files: &BTreeMap<String, &'static [u8]>, dir: &Path, force: bool) -> Result<()> {
    let target =
        |path: &str| -> PathBuf { path.split('/').fold(dir.to_path_buf(), |p, c| p.join(c)) };
    // Nothing is written when a file is in the way: the whole tree or none.
    if !force {
        let there: Vec<String> = files
            .keys()
            .map(|p| target(p))
            .filter(|t| t.symlink_metadata().is_ok())
            .map(|t| t.display().to_string())
            .collect();
        if let Some(first) = there.first() {
            let more = match there.len() {
                1 => String::new(),
                n => format!(" and {} other file{}", n - 1, if n == 2 { "" } else { "s" }),
            };
            bail!(
                "{first}{more} already there: nothing written (--force overwrites them with the \
                 built-in scripts)"
            );
        }
    }
    for (path, bytes) in files {
        let to = target(path);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot make the folder {}", parent.display()))?;
        }
        std::fs::write(&to, bytes).with_context(|| format!("cannot write {}", to.display()))?;
    }
    let shown = dir.display();
    outln!(
        "Wrote the {} built-in scripts to {shown}. Play with them (edited or not) with \
         `deckhand --scripts {shown} ...`: files there come before the built-in ones, file by \
         file, and the REPL's `reload` reads them again after an edit.",
        files.len()
    );
    Ok(())
}
