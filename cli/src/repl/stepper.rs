//! `deckhand replay FILE --step`: a saved game walked through at a prompt,
//! with the REPL's ways of moving about a game: the next step (Enter),
//! back, go to step N, the table from any seat, the log. Its commands
//! live in a table of the REPL's [`CommandInfo`]s, so `help` and the "did
//! you mean" answers work as at the REPL; the table is drawn by the same
//! [`Painter`].

use super::registry::{self, CommandInfo};
use crate::render::Painter;
use deckhand_engine::{
    secret_text, ActionRecord, Choice, Engine, Event, Game, GameConfig, Observer, Runner, Seat,
};

/// The commands of the `replay --step` prompt.
pub const STEP_COMMANDS: &[CommandInfo] = &[
    CommandInfo {
        name: "next",
        aliases: &["n"],
        args: "[N]",
        summary: "play the next step (Enter alone does the same), or the next N",
        help: "Play the next recorded step and show it with its events; `next N` plays N
steps. An empty line (Enter) plays one.
Examples:
  next
  next 10",
    },
    CommandInfo {
        name: "back",
        aliases: &["b", "undo"],
        args: "[N]",
        summary: "go back one step (or N)",
        help: "Go back one step (or N) and show the table there.
Examples:
  back
  back 5",
    },
    CommandInfo {
        name: "go",
        aliases: &["goto", "g"],
        args: "N",
        summary: "go to step N (0: before the first; a number alone does the same)",
        help: "Go to the position after step N (0 is the start, before the first step) and
show the table there. Typing the number alone does the same.
Examples:
  go 12
  12
  go 0",
    },
    CommandInfo {
        name: "show",
        aliases: &["table", "seat"],
        args: "[SEAT | all]",
        summary: "show the table, from a seat (what it sees) or all",
        help: "Show the table. With a seat number, from that seat: its hand and what it may
see, and only the events and choices it may see from then on; `all`
shows every hand (the default).
Examples:
  show
  show 2
  show all",
    },
    CommandInfo {
        name: "log",
        aliases: &["history"],
        args: "",
        summary: "list the steps played so far",
        help: "List the steps up to the current one, numbered.
Example:
  log",
    },
    CommandInfo {
        name: "help",
        aliases: &["?", "h"],
        args: "[COMMAND]",
        summary: "list the commands, or explain one",
        help: "List the commands, or show the long help of one.
Examples:
  help
  help go",
    },
    CommandInfo {
        name: "quit",
        aliases: &["q", "exit"],
        args: "",
        summary: "stop the replay (Ctrl-D does the same)",
        help: "Stop the replay.
Example:
  quit",
    },
];

/// A line typed at the `replay --step` prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepInput {
    Next(usize),
    Back(usize),
    Go(usize),
    /// `None`: the current viewpoint; `Some(None)`: all; `Some(Some(s))`: seat s.
    Show(Option<Option<Seat>>),
    Log,
    Help(Option<&'static CommandInfo>),
    Quit,
}

/// Read a line typed at the `replay --step` prompt.
pub fn parse_step(line: &str) -> Result<StepInput, String> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(StepInput::Next(1));
    }
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    if let Ok(n) = word.parse::<usize>() {
        if rest.is_empty() {
            return Ok(StepInput::Go(n));
        }
    }
    let Some(cmd) = registry::lookup_in(STEP_COMMANDS, word) else {
        let hint = registry::closest_in(STEP_COMMANDS, word)
            .map(|s| format!(" — did you mean '{s}'?"))
            .unwrap_or_default();
        return Err(format!(
            "unknown command '{word}'{hint} (type `help` for the commands)"
        ));
    };
    let bad = |message: &str| format!("{}: {message} (usage: {})", cmd.name, cmd.usage());
    let count = || -> Result<usize, String> {
        if rest.is_empty() {
            return Ok(1);
        }
        match rest.parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(bad(&format!("'{rest}' is not a count (1 or more)"))),
        }
    };
    let none = |input: StepInput| {
        if rest.is_empty() {
            Ok(input)
        } else {
            Err(bad("takes no arguments"))
        }
    };
    match cmd.name {
        "next" => count().map(StepInput::Next),
        "back" => count().map(StepInput::Back),
        "go" => rest
            .parse::<usize>()
            .map(StepInput::Go)
            .map_err(|_| bad("give a step number, 0 for the start")),
        "show" => match rest {
            "" => Ok(StepInput::Show(None)),
            "all" => Ok(StepInput::Show(Some(None))),
            n => match n.parse::<Seat>() {
                Ok(s) if s > 0 => Ok(StepInput::Show(Some(Some(s)))),
                _ => Err(bad(&format!("'{n}' is not a seat number or `all`"))),
            },
        },
        "log" => none(StepInput::Log),
        "help" if rest.is_empty() => Ok(StepInput::Help(None)),
        "help" => match registry::lookup_in(STEP_COMMANDS, rest) {
            Some(c) => Ok(StepInput::Help(Some(c))),
            None => Err(bad(&format!("no command '{rest}'"))),
        },
        "quit" => none(StepInput::Quit),
        other => Err(format!("'{other}' is not handled (this is a bug)")),
    }
}

/// Tells each step of a replayed game as one viewer may see it: the move
/// (a secret choice as the rules tell the others) and its events. Used by
/// `replay` with and without `--step`.
pub struct Narrator<'a> {
    pub painter: &'a Painter,
    /// `None`: everything; a seat: what that seat may see.
    pub viewer: Option<Seat>,
    /// The lines told so far, to print (unless `echo`).
    pub lines: Vec<String>,
    /// Print each line at once rather than keep it (a replay to the end).
    pub echo: bool,
    /// Also the table after every step.
    pub tables: bool,
    pub title: &'a str,
}

impl Narrator<'_> {
    fn tell(&mut self, line: String) {
        if self.echo {
            outln!("{line}");
        } else {
            self.lines.push(line);
        }
    }

    fn events(&mut self, game: &Game, events: &[Event]) {
        for e in events {
            let Some(t) = e.text() else { continue };
            if self.viewer.is_none_or(|v| game.event_visible_to(e, v)) {
                let line = format!("    {}", self.painter.paint_names(t));
                self.tell(line);
            }
        }
    }
}

/// The table of `game` from `viewer` (everything for `None`), with the
/// rules' status lines for a seat.
pub fn table(painter: &Painter, game: &Game, viewer: Option<Seat>, title: &str) -> String {
    let status = match viewer {
        Some(seat) => game
            .status_lines(seat)
            .unwrap_or_else(|e| vec![format!("(the rules' status lines failed: {e})")]),
        None => Vec::new(),
    };
    match game.view(viewer) {
        Ok(view) => painter.table(&view, title, &status),
        Err(e) => format!("cannot show the table: {e}"),
    }
}

impl Observer for Narrator<'_> {
    fn game_start(&mut self, game: &Game, events: &[Event]) -> deckhand_engine::Result<()> {
        self.events(game, events);
        Ok(())
    }

    fn decision(
        &mut self,
        game: &Game,
        seat: Seat,
        choice: &Choice,
    ) -> deckhand_engine::Result<()> {
        let text = match game.choice_text(choice) {
            Ok((action, text)) => match secret_text(&action) {
                Some(public) if self.viewer.is_some_and(|v| v != seat) => public,
                _ => text,
            },
            Err(_) => String::new(),
        };
        let line = format!(
            "{:>4}. seat {seat}: {}",
            game.history().len() + 1,
            self.painter.paint_names(&text)
        );
        self.tell(line);
        Ok(())
    }

    fn step(
        &mut self,
        game: &Game,
        _: Seat,
        _: &Choice,
        events: &[Event],
    ) -> deckhand_engine::Result<()> {
        self.events(game, events);
        if self.tables {
            let t = table(self.painter, game, self.viewer, self.title);
            self.tell(t);
        }
        Ok(())
    }
}

/// A saved game being stepped through.
pub struct Stepper {
    engine: Engine,
    config: GameConfig,
    actions: Vec<ActionRecord>,
    game: Game,
    painter: Painter,
    title: String,
    viewer: Option<Seat>,
    tables: bool,
    out: Vec<String>,
}

impl Stepper {
    /// At the start of `actions` (the game just set up).
    pub fn new(
        engine: Engine,
        config: GameConfig,
        actions: Vec<ActionRecord>,
        colour: bool,
        tables: bool,
    ) -> deckhand_engine::Result<Stepper> {
        let mut game = engine.new_game(config.clone(), true)?;
        let painter = Painter::new(&game, colour);
        let title = game.rules_info().title.clone();
        let mut narrator = Narrator {
            painter: &painter,
            viewer: None,
            lines: Vec::new(),
            echo: false,
            tables,
            title: &title,
        };
        Runner::new(Vec::new())
            .observe(&mut narrator)
            .started(&mut game)?;
        let out = narrator.lines;
        let mut s = Stepper {
            engine,
            config,
            actions,
            game,
            painter,
            title,
            viewer: None,
            tables,
            out,
        };
        s.say_position();
        Ok(s)
    }

    /// The game's title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// How many steps the log has.
    pub fn steps(&self) -> usize {
        self.actions.len()
    }

    /// The step the game stands after (0: the start).
    pub fn position(&self) -> usize {
        self.game.history().len()
    }

    /// The prompt: `step 3/40> `.
    pub fn prompt(&self) -> String {
        format!("step {}/{}> ", self.position(), self.actions.len())
    }

    /// The lines to print since the last call.
    pub fn take_output(&mut self) -> Vec<String> {
        std::mem::take(&mut self.out)
    }

    /// Run one line; false to stop.
    pub fn handle_line(&mut self, line: &str) -> bool {
        match parse_step(line) {
            Ok(StepInput::Quit) => return false,
            Ok(input) => self.handle(input),
            Err(e) => self.out.push(e),
        }
        true
    }

    fn handle(&mut self, input: StepInput) {
        match input {
            StepInput::Next(n) => self.forward(n),
            StepInput::Back(n) => {
                if self.position() == 0 {
                    self.out
                        .push("already at the start (step 0): `next` or Enter plays step 1".into());
                } else {
                    self.go(self.position().saturating_sub(n));
                }
            }
            StepInput::Go(n) if n > self.actions.len() => self.out.push(format!(
                "there is no step {n}: the log has {} (0 is the start)",
                self.actions.len()
            )),
            StepInput::Go(n) => self.go(n),
            StepInput::Show(seat) => {
                if let Some(viewer) = seat {
                    if let Some(s) = viewer.filter(|&s| s > self.config.players) {
                        return self.out.push(format!(
                            "there is no seat {s}: this game has {} seats",
                            self.config.players
                        ));
                    }
                    self.viewer = viewer;
                }
                self.show();
            }
            StepInput::Log => self.log(),
            StepInput::Help(None) => self.out.push(registry::list_of(STEP_COMMANDS)),
            StepInput::Help(Some(c)) => self.out.push(registry::detail(c)),
            StepInput::Quit => {}
        }
    }

    /// Play the next `n` steps, telling each.
    fn forward(&mut self, n: usize) {
        for _ in 0..n {
            let at = self.position();
            let Some(rec) = self.actions.get(at).cloned() else {
                return self.say_end();
            };
            let choice = match self.game.match_action(&rec) {
                Ok(i) => i,
                Err(reason) => {
                    return self.out.push(format!(
                        "the log stops being legal at step {}: {reason}",
                        at + 1
                    ))
                }
            };
            let mut narrator = Narrator {
                painter: &self.painter,
                viewer: self.viewer,
                lines: Vec::new(),
                echo: false,
                tables: self.tables,
                title: &self.title,
            };
            let applied = Runner::new(Vec::new())
                .observe(&mut narrator)
                .apply(&mut self.game, choice);
            let lines = narrator.lines;
            self.out.extend(lines);
            if let Err(e) = applied {
                return self.out.push(format!("step {} failed: {e}", at + 1));
            }
        }
        if self.position() == self.actions.len() {
            self.say_end();
        }
    }

    /// Go to the position after step `n`, rebuilt from the log.
    fn go(&mut self, n: usize) {
        match self.engine.replay(self.config.clone(), &self.actions[..n]) {
            Ok(mut game) => {
                game.take_events();
                self.game = game;
                self.say_position();
                self.show();
            }
            Err(stop) => self
                .out
                .push(format!("cannot go to step {n}: {}", stop.error)),
        }
    }

    /// The table at this step, from the viewer, titled with the step and
    /// whose turn it is.
    fn show(&mut self) {
        let turn = match self.game.pending() {
            Some((s, _)) => format!("seat {s} to play"),
            None => "game over".into(),
        };
        let title = format!(
            "{} · step {} of {} · {turn}",
            self.title,
            self.position(),
            self.actions.len()
        );
        let t = table(&self.painter, &self.game, self.viewer, &title);
        self.out.push(t);
    }

    fn say_position(&mut self) {
        let n = self.position();
        let total = self.actions.len();
        let seen = match self.viewer {
            Some(s) => format!(", as seat {s} sees it"),
            None => String::new(),
        };
        self.out.push(if n == 0 {
            format!(
                "At the start (step 0 of {total}){seen}. Enter: next step; `help`: the commands."
            )
        } else {
            format!("At step {n} of {total}{seen}.")
        });
    }

    fn say_end(&mut self) {
        let mut line = format!(
            "End of the log (step {} of {}).",
            self.position(),
            self.actions.len()
        );
        if self.game.is_over() {
            if let Ok(r) = self.game.result() {
                let winners: Vec<String> = r.winners.iter().map(|w| format!("seat {w}")).collect();
                line.push_str(&format!(
                    " Game over: {}.",
                    if winners.is_empty() {
                        "no seat wins".to_string()
                    } else {
                        format!("{} won", winners.join(", "))
                    }
                ));
            }
        } else {
            line.push_str(" The game goes on: `load` the save at the REPL to play on.");
        }
        self.out.push(line);
    }

    fn log(&mut self) {
        if self.position() == 0 {
            return self.out.push("No steps yet (step 0).".into());
        }
        for (i, rec) in self.game.history().iter().enumerate() {
            let text = if rec.action.is_null() {
                format!("option {}", rec.index)
            } else {
                let full = self
                    .game
                    .describe(&rec.action)
                    .unwrap_or_else(|_| rec.action.to_string());
                match secret_text(&rec.action) {
                    Some(public) if self.viewer.is_some_and(|v| v != rec.seat) => public,
                    _ => full,
                }
            };
            self.out.push(format!(
                "{:>4}. seat {}: {}",
                i + 1,
                rec.seat,
                self.painter.paint_names(&text)
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_as_the_navigation_commands() {
        assert_eq!(parse_step(""), Ok(StepInput::Next(1)));
        assert_eq!(parse_step("n 3"), Ok(StepInput::Next(3)));
        assert_eq!(parse_step("back"), Ok(StepInput::Back(1)));
        assert_eq!(parse_step("undo 2"), Ok(StepInput::Back(2)));
        assert_eq!(parse_step("12"), Ok(StepInput::Go(12)));
        assert_eq!(parse_step("go 0"), Ok(StepInput::Go(0)));
        assert_eq!(parse_step("show"), Ok(StepInput::Show(None)));
        assert_eq!(parse_step("show all"), Ok(StepInput::Show(Some(None))));
        assert_eq!(parse_step("seat 3"), Ok(StepInput::Show(Some(Some(3)))));
        assert_eq!(parse_step("q"), Ok(StepInput::Quit));
        for (bad, says) in [
            ("go", "give a step number"),
            ("next 0", "not a count"),
            ("show 0", "not a seat number"),
            ("log x", "takes no arguments"),
            ("bakc", "did you mean 'back'?"),
        ] {
            let e = parse_step(bad).expect_err(bad);
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn every_command_has_help_with_examples_that_parse() {
        for c in STEP_COMMANDS {
            let examples = c.examples();
            assert!(!examples.is_empty(), "{} has no example", c.name);
            for line in examples {
                if let Err(e) = parse_step(line) {
                    panic!("`{line}` in the help of {}: {e}", c.name);
                }
            }
        }
    }
}
