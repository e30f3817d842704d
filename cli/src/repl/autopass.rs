//! Auto-pass: the reaction windows a person does not want to be asked
//! about. A window is a decision with a kind (`window` in the rules) and a
//! pass option; when a person's seat is asked in a window they pass, the
//! REPL passes for them and says so.

use deckhand_engine::Seat;
use std::collections::BTreeSet;

/// What `all` stands for among the kinds.
const EVERY_KIND: &str = "*";

/// The auto-pass settings of one game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AutoPass {
    /// Window kinds always passed (`*`: every kind).
    kinds: BTreeSet<String>,
    /// Seats whose windows are all passed until their next turn (their
    /// next decision that is not a window).
    until_turn: BTreeSet<Seat>,
}

impl AutoPass {
    /// Whether `seat`, asked in a window of `kind`, passes without a question.
    pub fn passes(&self, seat: Seat, kind: &str) -> bool {
        self.until_turn.contains(&seat)
            || self.kinds.contains(EVERY_KIND)
            || self.kinds.contains(kind)
    }

    /// `seat` has a decision that is not a window: its turn has come.
    pub fn turn_reached(&mut self, seat: Seat) {
        self.until_turn.remove(&seat);
    }

    /// The settings in words.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.kinds.contains(EVERY_KIND) {
            parts.push("every window is passed".to_string());
        } else if !self.kinds.is_empty() {
            let kinds: Vec<&str> = self.kinds.iter().map(String::as_str).collect();
            parts.push(format!("windows passed: {}", kinds.join(", ")));
        }
        for s in &self.until_turn {
            parts.push(format!("seat {s} passes every window until its turn"));
        }
        if parts.is_empty() {
            "Auto-pass is off: you are asked in every window.".to_string()
        } else {
            format!("Auto-pass: {}.", parts.join("; "))
        }
    }

    /// Change the settings from the words of `autopass` (`seats`: the
    /// seats `turn` applies to). The new settings in words.
    pub fn change(&mut self, words: &[String], seats: &[Seat]) -> String {
        for w in words {
            match w.to_lowercase().as_str() {
                "off" | "none" => *self = AutoPass::default(),
                "all" => {
                    self.kinds.insert(EVERY_KIND.to_string());
                }
                "turn" => self.until_turn.extend(seats.iter().copied()),
                _ => {
                    self.kinds.insert(w.clone());
                }
            }
        }
        self.describe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn kinds_and_turns_pass_until_changed() {
        let mut a = AutoPass::default();
        assert!(!a.passes(1, "attack"));
        a.change(&words(&["attack"]), &[1]);
        assert!(a.passes(2, "attack") && !a.passes(1, "turn_end"));
        let said = a.change(&words(&["turn"]), &[1]);
        assert!(
            said.contains("seat 1 passes every window until its turn"),
            "{said}"
        );
        assert!(a.passes(1, "turn_end") && !a.passes(2, "turn_end"));
        a.turn_reached(1);
        assert!(!a.passes(1, "turn_end"));
        a.change(&words(&["all"]), &[1]);
        assert!(a.passes(3, "anything"));
        assert_eq!(
            a.change(&words(&["off"]), &[1]),
            "Auto-pass is off: you are asked in every window."
        );
    }
}
