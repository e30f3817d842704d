//! Running a line typed at the main prompt: read by the parser, then run
//! by its command; text that is no command is tried as the text of a legal
//! move before it is reported.

use super::args::ParseError;
use super::parse::{self, ReplInput};
use super::session::{Current, Flow, Session};

impl Session {
    /// Read and run one line typed at the main prompt.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        // Whoever typed it sees the screen as it was: the person it
        // showed the table to.
        self.looking = self.current.as_ref().and_then(Current::viewer);
        match parse::parse(line) {
            Ok(input) => self.handle(input),
            Err(ParseError::Unknown {
                word,
                text,
                suggestion,
            }) => {
                // Not a command: perhaps the text of a legal move.
                let e = ParseError::Unknown {
                    word,
                    text: text.clone(),
                    suggestion,
                };
                self.play_text(&text, Some(e));
                Flow::Continue
            }
            Err(e) => {
                self.out.error(e.to_string());
                Flow::Continue
            }
        }
    }

    /// Run one parsed command.
    pub fn handle(&mut self, input: ReplInput) -> Flow {
        match input {
            ReplInput::Empty => Flow::Continue,
            ReplInput::Command(command) => command.run(self),
        }
    }
}
