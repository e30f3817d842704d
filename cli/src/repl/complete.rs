//! Tab completion: command names and the names of the current legal moves
//! for the first word, then what the command completes of its arguments
//! (game ids, variant and option names, seat kinds: each command's
//! `complete`), from a [`Vocabulary`] the session refreshes before each
//! prompt. [`complete_line`] is a pure function; [`ReplHelper`] plugs it
//! into rustyline (and completes file names where a command asks for them,
//! after `save` and `load`).

use super::commands;
use super::vocabulary::{matching, Completion, Typed, Vocabulary};
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::{Context, Helper, Highlighter, Hinter, Validator};

/// Completions for `line` with the cursor at `pos`: the byte offset where
/// the replaced text starts, and the candidates. `None` asks for file names.
pub fn complete_line(v: &Vocabulary, line: &str, pos: usize) -> Completion {
    let before = line.get(..pos).unwrap_or(line);
    let lead = before.len() - before.trim_start().len();
    let body = &before[lead..];
    let Some(space) = body.find(char::is_whitespace) else {
        // The first word: a command, or the start of a move.
        let mut words: Vec<String> = commands::COMMANDS
            .iter()
            .map(|c| c.info.name.to_string())
            .collect();
        words.extend(v.moves.iter().cloned());
        return Some((lead, matching(words, body)));
    };
    let first = &body[..space];
    let Some(cmd) = commands::lookup(first) else {
        // Not a command: the whole text may be a move with spaces in its name.
        return Some((lead, matching(v.moves.iter().cloned(), body)));
    };
    let args_start = lead + space + (body[space..].len() - body[space..].trim_start().len());
    // The word under the cursor and where it starts.
    let word_start = before
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8())
        .max(args_start);
    let typed = Typed {
        before,
        args_start,
        word_start,
        // 1 for the first argument, 2 for the second ...
        arg_index: before[args_start..word_start].split_whitespace().count() + 1,
    };
    (cmd.complete)(v, &typed)
}

/// The rustyline helper: completion from the vocabulary, no hints.
#[derive(Helper, Hinter, Highlighter, Validator)]
pub struct ReplHelper {
    pub vocabulary: Vocabulary,
    files: FilenameCompleter,
}

impl ReplHelper {
    pub fn new() -> Self {
        ReplHelper {
            vocabulary: Vocabulary::default(),
            files: FilenameCompleter::new(),
        }
    }
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        match complete_line(&self.vocabulary, line, pos) {
            Some((start, words)) => Ok((
                start,
                words
                    .into_iter()
                    .map(|w| Pair {
                        display: w.clone(),
                        replacement: w,
                    })
                    .collect(),
            )),
            None => self.files.complete(line, pos, ctx),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repl::vocabulary::GameWords;

    fn vocab() -> Vocabulary {
        Vocabulary {
            games: vec![
                GameWords {
                    id: "sea_change".into(),
                    variants: vec!["solo".into(), "team".into()],
                    options: vec!["target_vp".into(), "team_target".into()],
                    bots: vec!["greedy".into()],
                },
                GameWords {
                    id: "seadogs".into(),
                    ..GameWords::default()
                },
            ],
            current: Some("sea_change".into()),
            moves: vec!["Blue 1".into(), "Blue 12".into(), "Red 5".into()],
        }
    }

    fn done(line: &str) -> (usize, Vec<String>) {
        complete_line(&vocab(), line, line.len()).expect("words, not files")
    }

    #[test]
    fn first_word_completes_commands_and_moves() {
        assert_eq!(done("sh"), (0, vec!["show".to_string()]));
        assert_eq!(
            done("re"),
            (
                0,
                vec![
                    "Red 5".to_string(),
                    "redo".into(),
                    "reload".into(),
                    "resume".into()
                ]
            )
        );
        assert_eq!(done("bl").1, vec!["Blue 1", "Blue 12"]);
        assert_eq!(done("  he"), (2, vec!["help".to_string()]));
    }

    #[test]
    fn move_names_with_spaces_complete_whole() {
        assert_eq!(
            done("blue 1"),
            (0, vec!["Blue 1".to_string(), "Blue 12".into()])
        );
        assert_eq!(done("play r"), (5, vec!["Red 5".to_string()]));
        assert_eq!(done("play blue 1").0, 5);
    }

    #[test]
    fn new_completes_games_keys_variants_and_seats() {
        assert_eq!(done("new sea").1, vec!["sea_change", "seadogs", "seats="]);
        assert_eq!(
            done("new se").1,
            vec!["sea_change", "seadogs", "seats=", "seed="]
        );
        assert_eq!(
            done("new sea_change t").1,
            vec!["target_vp=", "team_target="]
        );
        assert_eq!(done("new sea_change p").1, vec!["players="]);
        assert_eq!(
            done("new sea_change variant=t"),
            (23, vec!["team".to_string()])
        );
        let line = "new sea_change seats=human,g";
        assert_eq!(done(line), (line.len() - 1, vec!["greedy".to_string()]));
        assert_eq!(done("new seadogs variant=").1, Vec::<String>::new());
    }

    #[test]
    fn help_options_and_seats_complete_their_words() {
        assert_eq!(done("help un").1, vec!["undo"]);
        assert_eq!(done("options sea_").1, vec!["sea_change"]);
        assert_eq!(done("seats 2=r").1, vec!["random"]);
        assert_eq!(done("seats human,gr").1, vec!["greedy"]);
        assert_eq!(
            done("seats ").1,
            vec!["greedy", "human", "ismcts", "mc", "random"]
        );
    }

    #[test]
    fn wide_spaces_and_odd_text_do_not_panic() {
        assert_eq!(done("new\u{a0}sea_c").1, vec!["sea_change"]);
        assert_eq!(done("new sea_change\u{3000}tar").1, vec!["target_vp="]);
        for line in [
            "é",
            "new é=",
            "seats ,,,",
            "play \u{3000}",
            "new = =",
            "\u{a0}",
        ] {
            for pos in (0..=line.len()).filter(|p| line.is_char_boundary(*p)) {
                let _ = complete_line(&vocab(), line, pos);
            }
        }
    }

    #[test]
    fn files_after_save_and_load() {
        assert_eq!(complete_line(&vocab(), "save ga", 7), None);
        assert_eq!(complete_line(&vocab(), "load ", 5), None);
    }

    #[test]
    fn cursor_in_the_middle_uses_the_text_before_it() {
        assert_eq!(
            complete_line(&vocab(), "sh foo", 2),
            Some((0, vec!["show".to_string()]))
        );
    }
}
