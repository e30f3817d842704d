//! `hint`'s table: each option's value with its 95% interval, and the line
//! of play the search expects after it, worded from the options' texts.

use crate::render::Painter;
use deckhand_bots::hint::Hint;
use deckhand_bots::Budget;

/// The lines `hint` prints for `hint`, asked with `budget`.
pub(super) fn hint_lines(hint: &Hint, budget: Budget, painter: &Painter) -> Vec<String> {
    let how = if hint.parallel {
        format!("{} searches side by side", deckhand_bots::hint::SEARCHES)
    } else {
        format!("{} searches", deckhand_bots::hint::SEARCHES)
    };
    let within = match budget {
        Budget::Time(_) => format!(" in {budget} each"),
        Budget::Iterations(_) => String::new(),
    };
    let mut lines = vec![format!(
        "Search for seat {} ({} playouts{within} from what it has seen, {how}).\n\
         Value: share of wins, or the rules' estimate at the end of the round; \
         ± is a 95% interval (normal approximation). Likely next: the moves the \
         search expects, with the share of its playouts that went that way.",
        hint.seat, hint.playouts
    )];
    for (rank, o) in hint.options.iter().enumerate() {
        let mark = if rank == 0 { "  <- best" } else { "" };
        let interval = o
            .half_width
            .map_or(String::new(), |h| format!(" ± {:.0}", h * 100.0));
        lines.push(format!(
            "{:>3}) {}  {:.0}%{interval} over {} playouts{mark}",
            o.index,
            painter.paint_names(&o.text),
            o.mean * 100.0,
            o.playouts
        ));
        if !o.line.is_empty() {
            let moves: Vec<String> = o
                .line
                .iter()
                .map(|(seat, text, share)| {
                    let who = if *seat == hint.seat {
                        "you".to_string()
                    } else {
                        format!("seat {seat}")
                    };
                    format!(
                        "{who} {} ({:.0}%)",
                        painter.paint_names(text),
                        share * 100.0
                    )
                })
                .collect();
            lines.push(format!("       likely next: {}", moves.join(", ")));
        }
    }
    lines
}
