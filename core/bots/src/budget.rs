//! How long a search bot thinks about one decision: a number of playouts
//! (`mc:500`: the same choice every time for the same position and seed) or
//! a time (`ismcts:1s`, `ismcts:200ms`: as many playouts as fit, so the
//! choice depends on the machine and its load).

use std::fmt;
use std::time::{Duration, Instant};

/// The most playouts a search may make for one decision: more would keep a
/// decision running for hours.
pub const MAX_ITERATIONS: u32 = 100_000;

/// The longest time a search may think about one decision.
pub const MAX_TIME: Duration = Duration::from_secs(600);

/// A search's allowance for one decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// This many playouts (deterministic for a given seed).
    Iterations(u32),
    /// As many playouts as fit in this time (not deterministic).
    Time(Duration),
}

impl Budget {
    /// Read a budget as typed after a bot's name: a whole number of
    /// playouts (`500`, 1 to [`MAX_ITERATIONS`]) or a time in seconds or
    /// milliseconds (`1s`, `2.5s`, `200ms`, up to [`MAX_TIME`]).
    pub fn parse(text: &str) -> Result<Budget, String> {
        let t = text.trim();
        let time = |number: &str, unit: f64| -> Result<Budget, String> {
            let x: f64 = number
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| format!("'{text}' is not a time: write it as 1s, 2.5s or 200ms"))?;
            let secs = x * unit;
            if secs < 0.001 || secs > MAX_TIME.as_secs_f64() {
                return Err(format!(
                    "a search may think from 1ms to {}s a decision, not {text}",
                    MAX_TIME.as_secs()
                ));
            }
            Ok(Budget::Time(Duration::from_secs_f64(secs)))
        };
        // A time starts with its number: `1s`, `.5s`, `200ms`.
        let numeric = |x: &str| x.starts_with(|c: char| c.is_ascii_digit() || c == '.');
        if let Some(ms) = t.strip_suffix("ms").filter(|x| numeric(x)) {
            return time(ms, 0.001);
        }
        if let Some(s) = t.strip_suffix('s').filter(|x| numeric(x)) {
            return time(s, 1.0);
        }
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "'{text}' is not a budget: give a number of playouts (500) or a time (1s, 200ms)"
            ));
        }
        match t.parse::<u32>() {
            Ok(n) if (1..=MAX_ITERATIONS).contains(&n) => Ok(Budget::Iterations(n)),
            _ => Err(format!(
                "a search makes 1 to {MAX_ITERATIONS} playouts a decision, not {text}"
            )),
        }
    }

    /// Start spending this budget now.
    pub fn start(self) -> Spending {
        Spending {
            budget: self,
            start: Instant::now(),
            done: 0,
        }
    }
}

/// A number of playouts.
impl From<u32> for Budget {
    fn from(n: u32) -> Budget {
        Budget::Iterations(n)
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Iterations(n) => write!(f, "{n} playouts"),
            Budget::Time(d) if d.subsec_millis() == 0 => write!(f, "{}s", d.as_secs()),
            Budget::Time(d) => write!(f, "{}ms", d.as_millis()),
        }
    }
}

/// A budget being spent: one search's count of playouts and its clock.
#[derive(Debug, Clone)]
pub struct Spending {
    budget: Budget,
    start: Instant,
    done: u32,
}

impl Spending {
    /// Whether another playout may start (at least `min` are always
    /// allowed, so that every option gets one). Counts the playout.
    pub fn next(&mut self, min: u32) -> bool {
        let more = self.done < min
            || match self.budget {
                Budget::Iterations(n) => self.done < n,
                Budget::Time(t) => self.done < u32::MAX && self.start.elapsed() < t,
            };
        if more {
            self.done += 1;
        }
        more
    }

    /// Playouts started so far.
    pub fn done(&self) -> u32 {
        self.done
    }

    /// Whether `k` more playouts fit: all of them for a number of playouts,
    /// any time left for a time. Counts nothing (see [`Spending::count`]).
    pub fn fits(&self, k: u32) -> bool {
        match self.budget {
            Budget::Iterations(n) => self.done.saturating_add(k) <= n,
            Budget::Time(t) => self.done < u32::MAX && self.start.elapsed() < t,
        }
    }

    /// Count one playout started.
    pub fn count(&mut self) {
        self.done = self.done.saturating_add(1);
    }

    /// How many more playouts the budget holds: for a time, the time left
    /// at the rate of the playouts so far (0 before the first one).
    pub fn left(&self) -> u32 {
        match self.budget {
            Budget::Iterations(n) => n.saturating_sub(self.done),
            Budget::Time(t) => {
                let spent = self.start.elapsed();
                if self.done == 0 || spent >= t {
                    return 0;
                }
                let each = spent.as_secs_f64() / f64::from(self.done);
                let more = (t - spent).as_secs_f64() / each.max(1e-9);
                more.min(f64::from(MAX_ITERATIONS)) as u32
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_read_as_playouts_or_times() {
        assert_eq!(Budget::parse("500"), Ok(Budget::Iterations(500)));
        assert_eq!(
            Budget::parse("1s"),
            Ok(Budget::Time(Duration::from_secs(1)))
        );
        assert_eq!(
            Budget::parse("200ms"),
            Ok(Budget::Time(Duration::from_millis(200)))
        );
        assert_eq!(
            Budget::parse("2.5s"),
            Ok(Budget::Time(Duration::from_millis(2500)))
        );
    }

    #[test]
    fn bad_budgets_say_what_is_wrong() {
        let err = |t: &str| Budget::parse(t).unwrap_err();
        assert!(err("abc").contains("not a budget"), "{}", err("abc"));
        assert!(err("0").contains("1 to 100000"), "{}", err("0"));
        assert!(err("4000000000").contains("1 to 100000"));
        assert!(err("-5").contains("not a budget"));
        assert!(err("1xs").contains("not a time"), "{}", err("1xs"));
        assert!(err("lots").contains("not a budget"), "{}", err("lots"));
        assert!(err("0ms").contains("from 1ms"), "{}", err("0ms"));
        assert!(err("1000s").contains("600s"));
        assert!(err("nans").contains("not a budget"));
        assert!(err("1e999s").contains("not a time"));
        assert!(err("").contains("not a budget"));
    }

    #[test]
    fn an_iteration_budget_counts_and_lets_every_option_have_one() {
        let mut s = Budget::Iterations(3).start();
        let mut n = 0;
        while s.next(1) {
            n += 1;
        }
        assert_eq!(n, 3);
        let mut s = Budget::Iterations(2).start();
        let mut n = 0;
        while s.next(5) {
            n += 1;
        }
        assert_eq!(n, 5, "the minimum wins over a smaller budget");
    }

    #[test]
    fn a_budget_says_what_fits_and_what_is_left() {
        let mut s = Budget::Iterations(5).start();
        assert_eq!(s.left(), 5);
        assert!(s.fits(5) && !s.fits(6));
        s.count();
        s.count();
        assert_eq!((s.done(), s.left()), (2, 3));
        assert!(s.fits(3) && !s.fits(4));
        let mut t = Budget::Time(Duration::from_secs(60)).start();
        assert_eq!(t.left(), 0, "no rate before the first playout");
        t.count();
        std::thread::sleep(Duration::from_millis(2));
        assert!(t.fits(1_000));
        let left = t.left();
        assert!(left > 100 && left <= MAX_ITERATIONS, "{left}");
    }

    #[test]
    fn a_time_budget_stops() {
        let mut s = Budget::Time(Duration::from_millis(5)).start();
        while s.next(0) {}
        assert!(s.done() > 0);
    }
}
