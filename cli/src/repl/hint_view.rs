//! `hint`'s table: each option's value with its 95% interval, and the line
//! of play the search expects after it, worded from the options' texts.

use crate::render::Painter;
use deckhand_core::hint::Hint;

/// The lines `hint` prints for `hint`, asked with `asked` (the budget as
/// typed, or the default).
pub(super) fn hint_lines(hint: &Hint, asked: &str, painter: &Painter) -> Vec<String> {
    let how = if hint.parallel {
        format!("{} searches side by side", deckhand_core::hint::SEARCHES)
    } else {
        format!("{} searches", deckhand_core::hint::SEARCHES)
    };
    let mut lines = vec![format!(
        "Search for seat {} ({} playouts from what it has seen, {asked}, {how}).\n\
         Value: share of wins, or the rules' estimate at the end of the round; \
         ± is a 95% interval (normal approximation).",
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
