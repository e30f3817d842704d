//! `hint`'s table: each option's value with its 95% interval, and the line
//! of play the search expects after it, worded from the options' texts.

use crate::render::Painter;
use deckhand_bots::hint::{Hint, OptionHint};
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
         ± is a 95% interval (normal approximation). The moves are listed by \
         playouts: the search's choice (the move it played most) first. Likely \
         next: the moves the search expects, with the share of its playouts \
         that went that way.",
        hint.seat, hint.playouts
    )];
    let marks = marks(&hint.options);
    for (o, mark) in hint.options.iter().zip(marks) {
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

/// The mark beside each option (listed most playouts first): the
/// search's choice is the first; when another has a higher value, that
/// one is marked as such; when the choice has the highest value too, it
/// is simply the best.
fn marks(options: &[OptionHint]) -> Vec<&'static str> {
    let highest = options
        .iter()
        .enumerate()
        .max_by(|(i, a), (j, b)| a.mean.total_cmp(&b.mean).then(j.cmp(i)))
        .map(|(i, _)| i);
    (0..options.len())
        .map(|i| match (i, highest) {
            (0, Some(0)) => "  <- best (most playouts and highest value)",
            (0, _) => "  <- the search's choice (most playouts)",
            (i, Some(h)) if i == h => "  <- highest value",
            _ => "",
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(index: usize, playouts: u32, mean: f64) -> OptionHint {
        OptionHint {
            index,
            text: format!("move {index}"),
            playouts,
            mean,
            half_width: Some(0.02),
            line: Vec::new(),
        }
    }

    #[test]
    fn best_is_said_only_of_a_move_with_the_highest_value() {
        // The most searched move has 46 %, another 47 %.
        let options = [
            option(2, 120, 0.46),
            option(1, 80, 0.47),
            option(3, 40, 0.30),
        ];
        assert_eq!(
            marks(&options),
            [
                "  <- the search's choice (most playouts)",
                "  <- highest value",
                ""
            ]
        );
        let options = [option(2, 120, 0.50), option(1, 80, 0.47)];
        assert_eq!(
            marks(&options),
            ["  <- best (most playouts and highest value)", ""]
        );
        // Equal values: the first listed keeps the mark.
        let options = [option(2, 120, 0.47), option(1, 80, 0.47)];
        assert_eq!(
            marks(&options)[0],
            "  <- best (most playouts and highest value)"
        );
    }
}
