//! The root of both search bots: **sequential halving** over **shared
//! deals**.
//!
//! For k moves the budget is cut into ⌈log₂ k⌉ rounds of about equal
//! size. In a round every move still in is played on the same deals: each
//! deal is one seed, from which every move's playout draws its guess of
//! the hidden cards and its random stream (the moves after it, the
//! playout), so two moves are compared on the same cards and differ only
//! where the move made the difference (common random numbers). After the
//! round the better half by mean stays in (ties: the move listed first).
//! With a time budget each round has an equal share of the time left when
//! it starts.
//!
//! Every move is played at least once whatever the budget; a budget of
//! playouts is never exceeded once every move has had one, and may be left
//! a few playouts short (a round plays whole deals).

use crate::budget::Budget;
use deckhand_engine::error::Result;
use deckhand_engine::rng::GameRng;
use std::time::Instant;

/// What the halving gave one move: its playouts and the sum of their values.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Arm {
    pub playouts: u32,
    pub total: f64,
}

impl Arm {
    /// The mean value of its playouts (0 without any).
    pub fn mean(&self) -> f64 {
        if self.playouts == 0 {
            0.0
        } else {
            self.total / f64::from(self.playouts)
        }
    }
}

/// Spend `budget` on `k` moves (k ≥ 2) by sequential halving over shared
/// deals, each deal's seed drawn from `rng`. `play(m, deal)` plays move `m`
/// (0-based) once on the deal whose generator is `deal` (a fresh generator
/// from the deal's seed, the same for every move of that deal) and returns
/// the playout's value for the searching seat. Returns each move's
/// playouts and total value, in move order.
pub(crate) fn sequential_halving(
    k: usize,
    budget: Budget,
    rng: &mut GameRng,
    mut play: impl FnMut(usize, &mut GameRng) -> Result<f64>,
) -> Result<Vec<Arm>> {
    let mut arms = vec![Arm::default(); k];
    if k == 0 {
        return Ok(arms);
    }
    let mut spending = budget.start();
    let clock = Instant::now();
    let mut left_in: Vec<usize> = (0..k).collect();
    // ⌈log₂ k⌉ rounds (one for a single move).
    let mut rounds = (usize::BITS - (k - 1).leading_zeros()).max(1);
    loop {
        let k = left_in.len() as u32;
        // A number of playouts: an equal share of those left for each
        // round. A time: the round ends once it has had its share of the
        // time left (after at least one deal). Its length is not set from
        // the rate of the first deals: the later playouts of a search may
        // run slower (the copy's garbage, the compiler), and a round sized
        // by the first deal then took the whole budget.
        let (deals, round_end) = match budget {
            _ if rounds == 1 => (u32::MAX, None),
            Budget::Iterations(_) => ((spending.left() / (rounds * k)).max(1), None),
            Budget::Time(t) => {
                let now = clock.elapsed();
                (u32::MAX, Some(now + t.saturating_sub(now) / rounds))
            }
        };
        let mut dealt = 0;
        while dealt < deals && (spending.fits(k) || spending.done() == 0) {
            if dealt > 0 && round_end.is_some_and(|end| clock.elapsed() >= end) {
                break;
            }
            let deal = rng.next_u64();
            for &m in &left_in {
                spending.count();
                let value = play(m, &mut GameRng::derived(deal, 0))?;
                arms[m].playouts += 1;
                arms[m].total += value;
            }
            dealt += 1;
        }
        let kept = left_in.len().div_ceil(2);
        if rounds == 1 || !spending.fits(kept as u32) {
            break;
        }
        // Keep the better half by mean (ties: the earlier move).
        let mut ranked: Vec<(usize, f64)> = left_in.iter().map(|&m| (m, arms[m].mean())).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        left_in = ranked.into_iter().take(kept).map(|(m, _)| m).collect();
        left_in.sort_unstable();
        rounds -= 1;
    }
    Ok(arms)
}
