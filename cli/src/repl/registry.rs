//! The REPL's commands in one place: name, aliases, argument synopsis,
//! one-line help and long help with examples. `help`, `help CMD`, the
//! "did you mean" suggestions and tab completion are all generated from
//! [`COMMANDS`].

/// One REPL command as users see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandInfo {
    /// The name users type.
    pub name: &'static str,
    /// Other names for the same command.
    pub aliases: &'static [&'static str],
    /// The arguments, in usage notation (`[]` optional, `...` repeatable).
    pub args: &'static str,
    /// One line for `help`.
    pub summary: &'static str,
    /// The long help for `help CMD`, with examples.
    pub help: &'static str,
}

impl CommandInfo {
    /// `name args`, as shown in usage lines.
    pub fn usage(&self) -> String {
        if self.args.is_empty() {
            self.name.to_string()
        } else {
            format!("{} {}", self.name, self.args)
        }
    }

    /// The example lines of the long help (the indented lines after
    /// `Example:` or `Examples:`), as a person would type them (the tests
    /// run each one).
    #[cfg(test)]
    pub fn examples(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let mut inside = false;
        for line in self.help.lines() {
            if line.starts_with("Example") {
                inside = true;
            } else if inside && line.starts_with("  ") && !line.trim().is_empty() {
                out.push(line.trim());
            } else {
                inside = false;
            }
        }
        out
    }

    /// Whether `word` names this command (name or alias, case-insensitive).
    pub fn answers_to(&self, word: &str) -> bool {
        self.name.eq_ignore_ascii_case(word)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(word))
    }
}

/// Every command of the REPL, in the order `help` lists them.
pub const COMMANDS: &[CommandInfo] = &[
    CommandInfo {
        name: "new",
        aliases: &["start"],
        args: "[GAME] [players=N] [variant=V]... [seed=S] [seats=WHO,WHO,...] [OPTION=VALUE]...",
        summary: "start a new game (no GAME: the same game again with a new seed)",
        help: "Start a new game. Arguments after the game id are KEY=VALUE pairs:
  players=N          number of players (default: the game's default)
  variant=V          a variant name or a house-rule file; repeat it, or give
                     variant=a,b, to apply several in order
  seed=S             the seed of the game's shuffles (default: from the clock)
  seats=WHO,WHO,...  who sits where, seat 1 first: human, random, mc or
                     ismcts (search bots; mc:500 for 500 playouts a move,
                     up to 100000, ismcts:1s or ismcts:200ms for a time),
                     or a bot of the game;
                     seats not given get the game's first bot
                     (default: you at seat 1, bots elsewhere)
  OPTION=VALUE       any option of the game or its variants (see `options GAME`)
Without a game id, `new` starts the current game again (same variants,
options and seats) with a new seed, unless you give one.
Examples:
  new sea_change
  new sea_change players=3 target_vp=5 seed=42
  new sea_change players=4 variant=team seats=human,greedy,human,greedy
  new sea_change variant=my_rules/eights.lua",
    },
    CommandInfo {
        name: "show",
        aliases: &["table", "look"],
        args: "",
        summary: "show the table from your seat",
        help: "Show the table as your seat sees it: your hand, the public zones, how many
cards the hidden zones hold, and the game's status lines. In a hot-seat game
it shows the table of the seat whose turn it is.
Example:
  show",
    },
    CommandInfo {
        name: "moves",
        aliases: &["m", "legal"],
        args: "",
        summary: "list the legal moves, numbered",
        help: "List the legal moves of the seat to play, numbered. Play one by typing its
number, its text or a card name (case does not matter, a unique prefix is
enough), or with `play`. A bot's moves are not listed while a person plays
(they would show its hand).
Example:
  moves",
    },
    CommandInfo {
        name: "hint",
        aliases: &[],
        args: "[PLAYOUTS | TIME]",
        summary: "ask the search bot how each legal move does",
        help: "Run the `ismcts` search for the seat to play, from what that seat has seen
(the cards it cannot see are dealt at random in each playout), as two
independent searches side by side on two cores, and list the legal moves
with how each did: the share of playouts won, or the rules' estimate at the
end of the round, with a 95% interval (normal approximation), and the moves
the search expects next (with the share of playouts that went that way).
The best is marked. Nothing is played. PLAYOUTS (default 400, up to 100000)
trades time for accuracy, and gives the same hint every time; a TIME (1s,
200ms) searches for that long instead, so its hint varies. Ctrl-C stops a
long one and gives the prompt back.
Examples:
  hint
  hint 2000
  hint 1s",
    },
    CommandInfo {
        name: "autopass",
        aliases: &["ap"],
        args: "[KIND... | all | turn | off]",
        summary: "pass reaction windows without being asked",
        help: "Some games ask every seat, at set moments (after a move, at each step of an
attack), whether it responds, for cards played at any time: a reaction
window, shown with its kind under the moves. `autopass` passes them for you:
  autopass KIND   always pass windows of this kind (several may be given)
  autopass all    always pass every window
  autopass turn   pass every window until your next turn
  autopass off    be asked again in every window
Without arguments it shows the settings. A move passed for you is shown
with (auto-pass). The settings last until the next `new` or `load`.
Examples:
  autopass attack
  autopass turn",
    },
    CommandInfo {
        name: "play",
        aliases: &["p"],
        args: "N | TEXT",
        summary: "play move N, or the move whose text or card name is TEXT",
        help: "Play a legal move: its number in `moves`, its text, or the name of the card it
plays. Case does not matter and a unique prefix is enough, but numbers are
matched whole (`blue 1` is not Blue 12). Typing the number or the text
alone, without `play`, does the same. Naming a card that is not one of your
moves says why it is not (the game's reason, or your moves). Bots then move
for their seats until it is a person's turn again.
Examples:
  play 3
  play blue 7
  3
  blue 7",
    },
    CommandInfo {
        name: "undo",
        aliases: &["u"],
        args: "[N]",
        summary: "take back your last move (and the bot moves after it)",
        help: "Go back to your previous decision: your last move is taken back, and so are
the bot moves made after it. `undo N` goes back N of your decisions.
Right after a `reload`, `undo` takes the reload back instead. In a hot-seat
game the last person's move is taken back, whoever made it: deckhand says
whose, and asks to pass the terminal before showing that person's hand.
Random bots may choose differently when they play again.
Examples:
  undo
  undo 3",
    },
    CommandInfo {
        name: "redo",
        aliases: &[],
        args: "[N]",
        summary: "play again what undo took back",
        help: "Play again the moves that `undo` took back, up to your next decision (N
times with `redo N`). Making a different move forgets what could be redone.
Examples:
  redo
  redo 2",
    },
    CommandInfo {
        name: "continue",
        aliases: &["go"],
        args: "",
        summary: "let the bots play on after Ctrl-C stopped them",
        help: "Ctrl-C while a bot thinks (a search bot with many playouts) stops it and
gives the prompt back, the game as it stood before that bot's move.
`continue` lets the bots play on from there; `undo` takes your move back
instead.
Example:
  continue",
    },
    CommandInfo {
        name: "log",
        aliases: &["history"],
        args: "",
        summary: "list the moves made so far",
        help: "List every move made so far, numbered, with the seat that made it.
Example:
  log",
    },
    CommandInfo {
        name: "save",
        aliases: &[],
        args: "FILE",
        summary: "save the game to a JSON file",
        help: "Save the game (definition, seats and every move) to a JSON file. Loading it
replays the moves, so the game continues identically. The save holds the
text of the game's house-rule files, so it plays the same after a rule
file changes and from any folder.
Example:
  save evening.json",
    },
    CommandInfo {
        name: "load",
        aliases: &[],
        args: "FILE",
        summary: "load a saved game",
        help: "Load a game saved with `save` (or by `deckhand play`), with its seats, and
continue it. If the file cannot be read the current game is kept. The game
goes on with the house rules saved in it; if a rule file on disk differs,
a warning names it (`reload` plays the game under the file).
Example:
  load evening.json",
    },
    CommandInfo {
        name: "resume",
        aliases: &[],
        args: "[N]",
        summary: "list the games left unfinished, or resume one",
        help: "Every deckhand at a terminal autosaves its game after each move. A game
left unfinished by a deckhand that no longer runs (its terminal closed, the
process killed) is offered when deckhand starts; `resume` lists those games,
newest first, and `resume N` continues game N, as `load` would (the game in
progress is replaced). Games of deckhands still running are not listed.
Examples:
  resume
  resume 2",
    },
    CommandInfo {
        name: "reload",
        aliases: &["r"],
        args: "",
        summary: "reread the scripts from disk and replay the game under them",
        help: "Reread every script from disk (edit a rule, then reload) and replay the
game's moves under the new rules. If a move is no longer legal, it says at
which step and why, and the game continues from the last legal step. If a
script is broken, the current game is kept as it was. Games started with
`new` afterwards use the reread scripts too. `undo` right after a reload
takes it back (the game as it was, under the scripts loaded before), and
`redo` then reloads again.
Example:
  reload",
    },
    CommandInfo {
        name: "lua",
        aliases: &[],
        args: "[CODE]",
        summary: "evaluate Lua with `game` bound (bare `lua`: a Lua prompt)",
        help: "Evaluate a Lua expression or statement with `game` bound to the current game
and print the result. What it changes is not part of the game's log: use it
to look, not to play. A bare `lua` opens a Lua prompt; leave it with an empty
line or `.exit`.
Examples:
  lua game.seats
  lua game.vars
  lua #game:zone(\"hand\", 1)
  lua",
    },
    CommandInfo {
        name: "games",
        aliases: &["list"],
        args: "",
        summary: "list the games and their variants",
        help: "List every game on the scripts search path with its title, player range and
variants.
Example:
  games",
    },
    CommandInfo {
        name: "options",
        aliases: &["opts"],
        args: "[GAME]",
        summary: "show the options of the current game (or of GAME)",
        help: "Show the options of the current game with their values, defaults and what
they do; with a game id, the options that game declares. Set them with `new`.
Examples:
  options
  options sea_change",
    },
    CommandInfo {
        name: "rules",
        aliases: &[],
        args: "",
        summary: "the rules of the current game, its options and the variants in force",
        help: "Show the rules of the current game: the summary its script gives (or its
title), the variants and house rules in force, and its options with their
current values.
Example:
  rules",
    },
    CommandInfo {
        name: "seats",
        aliases: &["seat"],
        args: "[WHO,WHO,... | SEAT=WHO...]",
        summary: "show or change who sits at each seat",
        help: "Show who sits at each seat, or change it for the current game: WHO is human,
random, or a bot of the game. Give the whole list in seat order, or change
single seats with SEAT=WHO. If it becomes a bot's turn, the bots move.
Examples:
  seats
  seats human,greedy,random,greedy
  seats 3=human
  seats 1=greedy",
    },
    CommandInfo {
        name: "help",
        aliases: &["?", "h"],
        args: "[COMMAND]",
        summary: "list the commands, or explain one",
        help: "List the commands, or show the long help of one.
Examples:
  help
  help new",
    },
    CommandInfo {
        name: "quit",
        aliases: &["exit", "q"],
        args: "",
        summary: "leave deckhand (Ctrl-D does the same)",
        help: "Leave deckhand. The game is not saved: use `save FILE` first to keep it.
Example:
  quit",
    },
];

/// The command a word names (name or alias, case-insensitive).
pub fn lookup(word: &str) -> Option<&'static CommandInfo> {
    lookup_in(COMMANDS, word)
}

/// The command of `table` a word names (another prompt's commands, such
/// as `replay --step`'s).
pub fn lookup_in(table: &'static [CommandInfo], word: &str) -> Option<&'static CommandInfo> {
    table.iter().find(|c| c.answers_to(word))
}

/// Every name and alias.
#[cfg(test)]
pub fn all_names() -> impl Iterator<Item = &'static str> {
    COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
}

/// The command name closest to a mistyped word, if any is close enough.
pub fn closest(word: &str) -> Option<&'static str> {
    closest_in(COMMANDS, word)
}

/// The name in `table` closest to a mistyped word, if any is close enough.
pub fn closest_in(table: &'static [CommandInfo], word: &str) -> Option<&'static str> {
    let w = word.to_ascii_lowercase();
    if w.is_empty() {
        return None;
    }
    // A prefix of exactly one command name is the best guess.
    let prefixed: Vec<&CommandInfo> = table.iter().filter(|c| c.name.starts_with(&w)).collect();
    if let [one] = prefixed.as_slice() {
        return Some(one.name);
    }
    let limit = match w.chars().count() {
        0..=2 => 1,
        3..=5 => 2,
        _ => 3,
    };
    let w = w.as_str();
    table
        .iter()
        .flat_map(|c| {
            std::iter::once(c.name)
                .chain(c.aliases.iter().copied())
                .filter(|n| n.len() > 1)
                .map(move |n| (edit_distance(w, n), c.name))
        })
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, name)| name)
}

/// Optimal string alignment distance: insertions, deletions, substitutions
/// and transpositions of neighbours each cost 1.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// The text of `help`: every command with its synopsis and summary.
pub fn overview() -> String {
    let mut lines = vec![list_of(COMMANDS)];
    lines.push(String::new());
    lines.push("To play, type a move's number or its text (a card name, a unique prefix);".into());
    lines.push(
        "bots move for the other seats. Tab completes commands, games, options and moves.".into(),
    );
    lines.join("\n")
}

/// Every command of `table` with its summary, under a heading.
pub fn list_of(table: &[CommandInfo]) -> String {
    let mut lines = vec!["Commands (`help COMMAND` for details and examples):".to_string()];
    for c in table {
        lines.push(format!("  {:<10} {}", c.name, c.summary));
    }
    lines.join("\n")
}

/// The text of `help CMD`: usage, aliases and the long help.
pub fn detail(c: &CommandInfo) -> String {
    let mut out = format!("usage: {}\n", c.usage());
    if !c.aliases.is_empty() {
        out.push_str(&format!("aliases: {}\n", c.aliases.join(", ")));
    }
    out.push_str(c.help);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_are_unique() {
        let mut all: Vec<&str> = all_names().collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n, "a name or alias is used twice");
    }

    #[test]
    fn every_command_has_help_with_an_example() {
        for c in COMMANDS {
            assert!(!c.summary.is_empty(), "{}", c.name);
            assert!(!c.examples().is_empty(), "{} has no example", c.name);
        }
    }

    #[test]
    fn lookup_finds_names_and_aliases_in_any_case() {
        assert_eq!(lookup("SHOW").map(|c| c.name), Some("show"));
        assert_eq!(lookup("exit").map(|c| c.name), Some("quit"));
        assert_eq!(lookup("frobnicate"), None);
    }

    #[test]
    fn closest_suggests_plausible_names() {
        assert_eq!(closest("shwo"), Some("show"));
        assert_eq!(closest("hlep"), Some("help"));
        assert_eq!(closest("relaod"), Some("reload"));
        assert_eq!(closest("mov"), Some("moves"));
        assert_eq!(closest("xyzzy"), None);
    }

    #[test]
    fn edit_distance_counts_transpositions_once() {
        assert_eq!(edit_distance("show", "show"), 0);
        assert_eq!(edit_distance("shwo", "show"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn overview_lists_every_command() {
        let text = overview();
        for c in COMMANDS {
            assert!(text.contains(c.name));
        }
    }
}
