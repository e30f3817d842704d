//! Information-set Monte Carlo tree search (single observer): a search bot
//! for any game that plans beyond its own next move.
//!
//! The `mc` bot ([`crate::search`]) scores each of its options by playouts
//! and never looks further. This search grows one tree of decisions as the
//! searching seat can tell them apart. Each iteration
//!
//! 1. deals the cards the seat cannot place at random, as `mc` does
//!    ([`Game::determinized_with`]: the cards' backs and what the rules say
//!    a seat may hold);
//! 2. walks down the tree using only the options legal in that deal: a
//!    decision of another seat is keyed by what the searching seat can see
//!    of each option ([`Game::option_keys`]: a secret choice shows only its
//!    public text), so the tree never tells apart what the seat could not;
//!    the searching seat's own later decisions are told apart by what it
//!    sees then (its options and its own cards, [`sight_of`]), so that a
//!    decision after one draw is not mixed with the same-looking decision
//!    after another; below the root it picks by UCB with availability counts
//!    (an option's exploration term counts the iterations in which it was
//!    legal, not the parent's visits), each seat maximising its own value,
//!    except that with a playout bot another seat's decision is played as
//!    that bot plays it in the deal (it sees the cards dealt to that seat);
//! 3. adds one decision to the tree, plays on ([`Game::playout`]: random
//!    moves or a bot of the game's script) to the end of the round when the
//!    rules can evaluate a position, else to the end of the game;
//! 4. credits every decision on its way with the value of the outcome for
//!    the seat that made it.
//!
//! At the root the iterations are not spread by UCB but by **sequential
//! halving** over **shared deals**: the budget is cut into ⌈log₂ k⌉ rounds
//! for k moves; in each round every move still in is played on the same
//! deals (one guess of the hidden cards, and one random stream for the
//! moves and the playout after it, for all of them), and after the round
//! the better half by mean stays in. Two moves are then compared on the
//! same cards, so a small difference between them shows over few deals,
//! where with a fresh deal per iteration it was lost in how good each deal
//! happened to be; and the budget goes to the moves that might be best,
//! not to a move's exploration share. `mc` has the same root
//! (`halving.rs`). A time budget sets the rounds' lengths from the
//! rate of the playouts so far.
//!
//! It plays the option tried most (the better mean between the last two).
//! Decisions with one option are played without a node. Chance (a
//! shuffle, a draw) is part of the deal each iteration makes, so a node
//! stands for every outcome of chance below it.

use crate::budget::Budget;
use deckhand_engine::cancel::{self, Cancel};
use deckhand_engine::choice::Choice;
use deckhand_engine::error::{CoreError, Result};
use deckhand_engine::game::Game;
use deckhand_engine::policy::{build_subset, greedy_subset};
use deckhand_engine::rng::GameRng;
use deckhand_engine::zone::{Seat, Sight};

/// Playouts per decision when the bot's name gives no budget (`ismcts`).
pub const DEFAULT_ITERATIONS: u32 = 400;

/// UCB exploration constant (values are in 0..=1), as for `mc`.
const EXPLORATION: f64 = 0.7;

/// Progressive widening below the root: a decision met `n` times has at
/// most ⌈WIDENING·√n⌉ moves in the tree. Each move added there that the
/// playout bot would not play is usually a worse one, and at the budgets
/// the bots play with (25-140 iterations a decision) it weighs on the value
/// of the root option above it: with 1.0 (⌈√n⌉) `ismcts` won 30.5 % of
/// 2-player Sea Salt & Paper games against the greedy bot where `mc` won
/// 44.0 %, on the same 200 seeds; with 0.5 it won 42.5 %, with 0.25 34.5 %
/// (docs/bots.md).
const WIDENING: f64 = 0.5;

/// A playout longer than this many steps counts as a draw.
const MAX_PLAYOUT_STEPS: usize = 100_000;

/// One decision of the tree: an option as the searching seat sees it, and
/// what the iterations through it found.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The option's text as the searching seat sees it ("" at the root).
    pub key: String,
    /// The seat that chose it (the searching seat at the root).
    pub seat: Seat,
    /// Iterations that went through it.
    pub visits: u32,
    /// Iterations in which it was legal when its parent was reached.
    pub available: u32,
    /// Sum of the values (for `seat`) of those iterations, and of their squares.
    pub total: f64,
    pub total_sq: f64,
    /// Indices of its children in the tree.
    pub children: Vec<usize>,
    /// For a move of the searching seat below the root, what that seat saw
    /// when it made it ([`sight_of`]); 0 otherwise.
    pub sight: u64,
}

impl Node {
    fn new(key: String, seat: Seat) -> Node {
        Node {
            key,
            seat,
            visits: 0,
            available: 0,
            total: 0.0,
            total_sq: 0.0,
            children: Vec::new(),
            sight: 0,
        }
    }

    /// Mean value for the seat that chose it.
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / f64::from(self.visits)
        }
    }

    /// Half-width of the 95% interval of the mean (normal approximation:
    /// 1.96 standard errors, from the values' sample standard deviation);
    /// `None` with fewer than two values.
    pub fn half_width(&self) -> Option<f64> {
        if self.visits < 2 {
            return None;
        }
        let n = f64::from(self.visits);
        let var = ((self.total_sq - self.total * self.total / n) / (n - 1.0)).max(0.0);
        Some(1.96 * (var / n).sqrt())
    }
}

/// The tree one search grew: node 0 is the root (the decision searched).
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    pub nodes: Vec<Node>,
}

impl Tree {
    /// A tree with only its root, for `seat`'s decision.
    pub fn new(seat: Seat) -> Tree {
        Tree {
            nodes: vec![Node::new(String::new(), seat)],
        }
    }

    /// The child of `parent` keyed `key` chosen by `seat` seeing `sight`.
    fn child(&self, parent: usize, key: &str, seat: Seat, sight: u64) -> Option<usize> {
        self.nodes[parent].children.iter().copied().find(|&c| {
            let n = &self.nodes[c];
            n.key == key && n.seat == seat && n.sight == sight
        })
    }

    fn add_child(&mut self, parent: usize, key: String, seat: Seat, sight: u64) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node {
            sight,
            ..Node::new(key, seat)
        });
        self.nodes[parent].children.push(id);
        id
    }

    /// The root's children: the searched decision's options as tried.
    pub fn root_options(&self) -> impl Iterator<Item = &Node> {
        self.nodes[0].children.iter().map(|&c| &self.nodes[c])
    }

    /// Add the statistics of `other` (a search of the same decision with
    /// another stream) to this tree, node by node along equal keys.
    pub fn merge(&mut self, other: &Tree) {
        self.merge_node(0, other, 0);
    }

    fn merge_node(&mut self, here: usize, other: &Tree, there: usize) {
        let o = &other.nodes[there];
        let n = &mut self.nodes[here];
        n.visits += o.visits;
        n.available += o.available;
        n.total += o.total;
        n.total_sq += o.total_sq;
        for &oc in &o.children {
            let o = &other.nodes[oc];
            let mine = match self.child(here, &o.key, o.seat, o.sight) {
                Some(c) => c,
                None => self.add_child(here, o.key.clone(), o.seat, o.sight),
            };
            self.merge_node(mine, other, oc);
        }
    }

    /// The continuation the search expects after `node`: from there, the
    /// most visited child at each step, while it was visited at least
    /// twice, up to `depth` moves; with each move's share of its parent's
    /// visits.
    pub fn principal_line(&self, node: usize, depth: usize) -> Vec<(Seat, String, f64)> {
        let mut line = Vec::new();
        let mut at = node;
        while line.len() < depth {
            let parent = &self.nodes[at];
            let Some(&best) = parent.children.iter().max_by(|&&a, &&b| {
                let (a, b) = (&self.nodes[a], &self.nodes[b]);
                a.visits.cmp(&b.visits).then(b.key.cmp(&a.key))
            }) else {
                break;
            };
            let b = &self.nodes[best];
            if b.visits < 2 {
                break;
            }
            let share = f64::from(b.visits) / f64::from(parent.visits.max(1));
            line.push((b.seat, b.key.clone(), share.min(1.0)));
            at = best;
        }
        line
    }
}

/// Choose for the seat to move: the option the tree rates best and, for an
/// option that asks for cards, a set for it (the rules' best-scored set
/// when they score sets, else one built at random: the tree searches
/// options, and samples the sets inside one). Stops with
/// [`CoreError::Cancelled`] between two iterations once `cancel` is set.
pub fn choose(
    game: &Game,
    rng: &mut GameRng,
    budget: Budget,
    policy: Option<&str>,
    cancel: Option<&Cancel>,
) -> Result<Choice> {
    choose_among(game, rng, budget, policy, cancel, None)
}

/// [`choose`] among the options `allowed` (1-based; every option when
/// `None`): a bot barred from a mechanic (`ismcts:400/never_stop`). The
/// bar holds at the decision searched, as `mc`'s does: below the root the
/// tree plays the seat's later decisions as it would unbarred, and each
/// of those is barred again when the seat comes to make it.
pub fn choose_among(
    game: &Game,
    rng: &mut GameRng,
    budget: Budget,
    policy: Option<&str>,
    cancel: Option<&Cancel>,
    allowed: Option<&[usize]>,
) -> Result<Choice> {
    let Some((seat, n)) = game.pending() else {
        return Err(CoreError::Rule("the game is over".into()));
    };
    let index = match allowed {
        _ if n == 1 => 1,
        Some([only]) => *only,
        _ => {
            let tree = search_among(game, rng, budget, policy, cancel, allowed)?;
            best_option_among(game, seat, &tree, allowed)?
                .or_else(|| allowed.and_then(|a| a.first().copied()))
                .unwrap_or(1)
        }
    };
    if game.has_subsets() && game.subset(index)?.is_some() {
        let picks = match greedy_subset(game, index, rng)? {
            Some(p) => p,
            None => build_subset(game, index, rng)?,
        };
        return Ok(Choice::subset(index, picks));
    }
    Ok(Choice::option(index))
}

/// Apply option `index` of `g`'s pending decision in a search: for an
/// option that asks for cards, with the set the rules score best (the set
/// the bot plays when it chooses that option at the root), or one built at
/// random when the rules give no score. (With random sets in the tree, an
/// option such as a sale was valued by the average random sale, far below
/// the sale the bot would make.)
fn apply_in_search(g: &mut Game, index: usize, rng: &mut GameRng) -> Result<()> {
    if g.has_subsets() && g.subset(index)?.is_some() {
        let picks = match greedy_subset(g, index, rng)? {
            Some(p) => p,
            None => build_subset(g, index, rng)?,
        };
        return g.apply_choice(&Choice::subset(index, picks));
    }
    g.apply(index)
}

/// The 1-based option of `game`'s pending decision the tree rates best:
/// the most visited root option (then the higher mean, then the first).
pub fn best_option(game: &Game, seat: Seat, tree: &Tree) -> Result<Option<usize>> {
    best_option_among(game, seat, tree, None)
}

/// [`best_option`], naming only an option `allowed` (of the options a
/// root move stands for, the first allowed).
fn best_option_among(
    game: &Game,
    seat: Seat,
    tree: &Tree,
    allowed: Option<&[usize]>,
) -> Result<Option<usize>> {
    let keys = game.option_keys(seat)?;
    let allows = |i: usize| allowed.is_none_or(|a| a.contains(&i));
    let best = tree
        .nodes
        .first()
        .into_iter()
        .flat_map(|root| root.children.iter())
        .filter_map(|&c| {
            let node = &tree.nodes[c];
            let index = (1..=keys.len()).find(|&i| keys[i - 1] == node.key && allows(i))?;
            Some((node, index))
        })
        .max_by(|(a, i), (b, j)| {
            a.visits
                .cmp(&b.visits)
                .then(a.mean().total_cmp(&b.mean()))
                .then(j.cmp(i))
        });
    Ok(best.map(|(_, i)| i))
}

/// The tree of one search of the pending decision, within `budget`,
/// playouts played by `policy` (a script bot; `None` for the rules'
/// `playout_bot`, `random` for random moves). Stops with
/// [`CoreError::Cancelled`] between two iterations once `cancel` is set.
pub fn search(
    game: &Game,
    rng: &mut GameRng,
    budget: Budget,
    policy: Option<&str>,
    cancel: Option<&Cancel>,
) -> Result<Tree> {
    search_among(game, rng, budget, policy, cancel, None)
}

/// [`search`] with the root's moves kept to the options `allowed`
/// (1-based; every option when `None`).
pub fn search_among(
    game: &Game,
    rng: &mut GameRng,
    budget: Budget,
    policy: Option<&str>,
    cancel: Option<&Cancel>,
    allowed: Option<&[usize]>,
) -> Result<Tree> {
    let (seat, n) = game
        .pending()
        .ok_or_else(|| CoreError::Rule("the game is over".into()))?;
    let policy = crate::search::playout_policy(game, policy);
    let mut tree = Tree::new(seat);
    // Playouts stop at the end of this round when the rules can evaluate.
    let horizon = match game.evaluate(seat)? {
        Some(_) => Some(game.rounds()?),
        None => None,
    };
    let guessing = game.guessing(seat)?;
    // The searched decision's options as its seat sees them: the same in
    // every deal (a guess changes only cards the seat cannot see), so asked
    // of the rules once rather than at every iteration.
    let root = Root {
        seat,
        options: n,
        keys: game.option_keys(seat)?,
        allowed,
        horizon,
        policy,
    };
    // One copy of the game, made again for every guess.
    let mut scratch = None;
    // One iteration, starting with the root's move `first` when given; the
    // value of its outcome for the searching seat.
    let mut iterate = |tree: &mut Tree, rng: &mut GameRng, first: Option<usize>| -> Result<f64> {
        cancel::check(cancel)?;
        let g = game.determinized_into(seat, rng, &guessing, &mut scratch)?;
        let path = descend(tree, g, &root, rng, first)?;
        let values = g.playout(horizon, policy, MAX_PLAYOUT_STEPS, None)?;
        let value_for = |s: Seat| {
            values.as_ref().map_or(0.5, |v| {
                (s as usize)
                    .checked_sub(1)
                    .and_then(|i| v.get(i))
                    .copied()
                    .unwrap_or(0.0)
            })
        };
        for &id in &path {
            let node = &mut tree.nodes[id];
            let v = value_for(node.seat);
            node.visits += 1;
            node.total += v;
            node.total_sq += v * v;
        }
        Ok(value_for(seat))
    };
    let moves = root.moves().len();
    if moves < 2 {
        // One move as the seat sees it: nothing to compare at the root.
        let mut spending = budget.start();
        while spending.fits(1) || spending.done() == 0 {
            spending.count();
            iterate(&mut tree, rng, None)?;
        }
        return Ok(tree);
    }
    // Sequential halving over the root's moves, each deal shared by all
    // the moves still in (see the module's notes on the root). Every
    // iteration with root move `m` passes through that move's node, so the
    // halving's means are the nodes' means.
    crate::halving::sequential_halving(moves, budget, rng, |m, deal| {
        iterate(&mut tree, deal, Some(m))
    })?;
    Ok(tree)
}

/// `keys` (a decision's options as the searching seat sees them) as moves:
/// each distinct key once, in the order of its first option, with the
/// 1-based options that share it (a secret choice, identical cards).
fn moves_of(keys: &[String]) -> Vec<(&str, Vec<usize>)> {
    let mut moves: Vec<(&str, Vec<usize>)> = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        match moves.iter_mut().find(|(key, _)| *key == k.as_str()) {
            Some((_, same)) => same.push(i + 1),
            None => moves.push((k.as_str(), vec![i + 1])),
        }
    }
    moves
}

/// The searched decision: its seat, its number of options and their keys
/// as that seat sees them ([`Game::option_keys`]), the options a bar
/// allows; and how the search plays on (the round it stops at, the
/// playout bot).
struct Root<'p> {
    seat: Seat,
    options: usize,
    keys: Vec<String>,
    allowed: Option<&'p [usize]>,
    horizon: Option<u32>,
    policy: Option<&'p str>,
}

impl Root<'_> {
    /// The moves searched at the root: [`moves_of`] its keys, each with
    /// only the options allowed, and those left with none dropped (all of
    /// them, should the bar allow none of the options).
    fn moves(&self) -> Vec<(&str, Vec<usize>)> {
        let mut moves = moves_of(&self.keys);
        if let Some(allowed) = self.allowed {
            let kept: Vec<(&str, Vec<usize>)> = moves
                .iter()
                .map(|(k, same)| {
                    let same = same.iter().copied().filter(|i| allowed.contains(i));
                    (*k, same.collect::<Vec<usize>>())
                })
                .filter(|(_, same)| !same.is_empty())
                .collect();
            if !kept.is_empty() {
                moves = kept;
            }
        }
        moves
    }
}

/// What the searching seat sees at one of its own decisions in `g`, whose
/// options it sees as `keys`, as a number that tells its views apart (never
/// 0, which marks the other nodes): a 64-bit hash of those options and of
/// the cards in its own zones that it sees.
///
/// A node of the tree stands for a decision as the seat can tell it apart.
/// Keyed by the moves leading to it alone, the seat's decision after
/// drawing one card and the same-looking decision after drawing another
/// were one node: "keep the Crab" was valued over every draw, whatever the
/// other card was. Two views that differ only in identical cards (two
/// cards of one kind are still two cards) are kept apart too: that costs
/// the tree some sharing, never a wrong value.
fn sight_of(g: &Game, seat: Seat, keys: &[String]) -> Result<u64> {
    use std::hash::{Hash, Hasher};
    // Only compared within one search: any fixed hash will do.
    let mut h = std::collections::hash_map::DefaultHasher::new();
    keys.hash(&mut h);
    g.with_table(|t| {
        for z in &t.zones {
            if z.owner == Some(seat) && z.sight(Some(seat)) == Sight::All {
                (z.id, &z.cards).hash(&mut h);
            }
        }
    })?;
    Ok(h.finish().max(1))
}

/// Walk down the tree in the deal `g`, applying the options chosen, until a
/// decision is added (or the round or game ends); the nodes passed, root
/// first.
///
/// Below the root, when the playouts are played by a script bot (`policy`):
///
/// - another seat's decision is played as that bot plays it in this deal,
///   and the tree only keeps count of it. The bot sees the cards dealt to
///   that seat; the tree's statistics at that node mix every deal, so
///   chosen by them that seat played the move best on average over the
///   cards it might hold, not the one its cards call for. In 2-player Sea
///   Salt & Paper with `ismcts:48` against the greedy bot, following the
///   bot (with the seat's own decisions told apart by their options) won
///   52.5 % of 400 games where choosing by the statistics won 41.2 %,
///   +11.2 points (+4.5 .. +18.0, paired by seed; docs/bots.md);
/// - the searching seat's own decisions grow the way that bot plays: at a
///   decision not met before the tree first adds the bot's own move, and
///   adds another untried move only once the decision has been visited
///   often enough (progressive widening: at most ⌈√visits / 2⌉ moves, see
///   [`WIDENING`]). Without this, each step below the root would start
///   from a random move, and in a game whose turn is several decisions
///   (sail, then act at the island, then attack) the value of a good first
///   step was mostly that of random second steps, while `mc` follows it
///   with the bot's moves.
///
/// At the root the move played is `first` (the index of a move among the
/// root's, [`moves_of`]), chosen by the search's halving. With random
/// playouts every seat's decision is chosen by UCB, each seat for its own
/// value.
fn descend(
    tree: &mut Tree,
    g: &mut Game,
    root: &Root,
    rng: &mut GameRng,
    first: Option<usize>,
) -> Result<Vec<usize>> {
    let (seat, horizon, policy) = (root.seat, root.horizon, root.policy);
    let mut path = vec![0];
    let mut at = 0;
    while let Some((mover, n)) = g.pending() {
        if let Some(round) = horizon {
            if g.rounds()? > round {
                break;
            }
        }
        if n == 1 {
            apply_in_search(g, 1, rng)?;
            continue;
        }
        let guided = policy.filter(|_| at != 0);
        if let (Some(bot), true) = (guided, mover != seat) {
            // Another seat below the root: its move is the playout bot's,
            // and only that move's key is needed.
            let choice = g.script_bot_choice(bot, GameRng::derived(rng.next_u64(), 0))?;
            let key = g.option_key(seat, choice.index)?;
            let (child, added) = match tree.child(at, &key, mover, 0) {
                Some(c) => (c, false),
                None => (tree.add_child(at, key, mover, 0), true),
            };
            tree.nodes[child].available += 1;
            g.apply_choice(&choice)?;
            path.push(child);
            at = child;
            if added {
                break;
            }
            continue;
        }
        // The options as the searching seat tells them apart: options with
        // equal keys are one move to it (a secret choice, identical cards).
        // (At node 0 with as many options as the searched decision, this is
        // that decision: a decision reached by forced moves from a searched
        // decision with one option has more than one.)
        let searched = at == 0 && n == root.options;
        let asked;
        let (keys, moves): (&[String], _) = if searched {
            (&root.keys, root.moves())
        } else {
            asked = g.option_keys(seat)?;
            (&asked, moves_of(&asked))
        };
        // The root's move when the search names it.
        let named = first.filter(|&m| searched && m < moves.len());
        let sight = if at != 0 && mover == seat {
            sight_of(g, seat, keys)?
        } else {
            0
        };
        let children: Vec<Option<usize>> = moves
            .iter()
            .map(|(k, _)| tree.child(at, k, mover, sight))
            .collect();
        for c in children.iter().flatten() {
            tree.nodes[*c].available += 1;
        }
        let untried: Vec<usize> = (0..moves.len())
            .filter(|&m| children[m].is_none())
            .collect();
        // The policy's move, when it is one not tried yet here.
        let policy_move = match guided {
            Some(bot) if !untried.is_empty() => g
                .script_bot_choice(bot, GameRng::derived(rng.next_u64(), 0))
                .ok()
                .and_then(|choice| {
                    let m = untried
                        .iter()
                        .copied()
                        .find(|&m| moves[m].1.contains(&choice.index))?;
                    Some((m, choice))
                }),
            _ => None,
        };
        // How often this decision was met as the seat sees it now: every
        // visit when it sees it one way only, else the count of the first
        // move added for this view (each meeting with this view counts as
        // an availability of every move tried with it).
        let met = if sight == 0 {
            tree.nodes[at].visits
        } else {
            children
                .iter()
                .flatten()
                .map(|&c| tree.nodes[c].available)
                .max()
                .unwrap_or(0)
        };
        let tried = moves.len() - untried.len();
        let widen = guided.is_none()
            || tried == 0
            || (tried as f64) < (WIDENING * f64::from(met.max(1)).sqrt()).ceil();
        let (m, child, added, choice) = if let Some(m) = named {
            match children[m] {
                Some(c) => (m, c, false, None),
                None => {
                    let c = tree.add_child(at, moves[m].0.to_string(), mover, sight);
                    tree.nodes[c].available = 1;
                    (m, c, true, None)
                }
            }
        } else if let Some((m, choice)) = policy_move {
            let c = tree.add_child(at, moves[m].0.to_string(), mover, sight);
            tree.nodes[c].available = 1;
            (m, c, true, Some(choice))
        } else if untried.is_empty() || !widen {
            let m = (0..moves.len())
                .filter_map(|m| {
                    let node = &tree.nodes[children[m]?];
                    let v = f64::from(node.visits.max(1));
                    let ucb = node.mean()
                        + EXPLORATION * (f64::from(node.available.max(1)).ln() / v).sqrt();
                    Some((m, ucb))
                })
                .fold((0, f64::MIN), |best, x| if x.1 > best.1 { x } else { best })
                .0;
            (m, children[m].unwrap_or(0), false, None)
        } else {
            let m = untried[rng.below(untried.len() as u64) as usize];
            let c = tree.add_child(at, moves[m].0.to_string(), mover, sight);
            tree.nodes[c].available = 1;
            (m, c, true, None)
        };
        // Options the searching seat cannot tell apart (another seat's
        // secret choices with random playouts, two identical cards of its
        // own) are one move; which of them is played is the playout bot's
        // choice when there is one, else random.
        let choice = choice.or_else(|| {
            let same = &moves[m].1;
            let bot = policy.filter(|_| same.len() > 1)?;
            g.script_bot_choice(bot, GameRng::derived(rng.next_u64(), 1))
                .ok()
                .filter(|c| same.contains(&c.index))
        });
        match choice {
            Some(choice) => g.apply_choice(&choice)?,
            None => {
                let same = &moves[m].1;
                let index = same[rng.below(same.len() as u64) as usize];
                apply_in_search(g, index, rng)?;
            }
        }
        path.push(child);
        at = child;
        if added {
            break;
        }
    }
    Ok(path)
}
