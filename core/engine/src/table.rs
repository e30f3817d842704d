//! The table: cards, zones, teams, the RNG and the event log of one game.
//! This is the Rust-held state every card move goes through; scripts read a
//! mirror of the zones that the Lua prelude keeps in step with it.

use crate::card::{CardDef, CardId};
use crate::error::{CoreError, Result};
use crate::event::{Event, EventKind, MoveHow};
use crate::knowledge::{self, Knowledge};
use crate::rng::GameRng;
use crate::zone::{Seat, Sight, Visibility, Zone, ZoneId};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Whose knowledge a guess at the hidden cards keeps ([`Table::determinize`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewpoint {
    /// What one seat knows: the guesses of a search bot playing that seat.
    Seat(Seat),
    /// What any seat knows: every hand as it is, only the cards no seat
    /// knows (a deck's order) guessed. For measuring bots only (how much
    /// knowing the other hands would be worth), never for a player.
    EverySeat,
}

impl From<Seat> for Viewpoint {
    fn from(seat: Seat) -> Viewpoint {
        Viewpoint::Seat(seat)
    }
}

/// Cards, zones, teams, RNG and log of one game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Table {
    pub seats: u32,
    /// Number of cards defined (ids 1..=card_count).
    pub card_count: u32,
    /// Card definitions, read from the script when first needed (a trace, a
    /// view, a front end): bulk simulation never converts them.
    pub cards: Vec<CardDef>,
    pub zones: Vec<Zone>,
    /// Who knows where each card is (kept up to date by every move).
    pub known: Knowledge,
    /// Whether each card (index = id - 1) has been placed in its first zone.
    #[serde(default)]
    placed: Vec<bool>,
    pub teams: Option<Vec<Vec<Seat>>>,
    pub rng: GameRng,
    /// Actions applied so far (stamped on events).
    pub step: usize,
    /// Whether events are recorded (off in bulk simulation, for speed).
    pub logging: bool,
    #[serde(skip)]
    pub events: Vec<Event>,
    /// About how many bytes `events` holds.
    #[serde(skip)]
    pub event_bytes: usize,
}

/// The most cards a game may define. Every card costs the core memory and
/// time in each check; the games shipped use a few hundred at most.
pub const MAX_CARDS: u32 = 100_000;

/// The most zones a game may make.
pub const MAX_ZONES: usize = 10_000;

impl Table {
    /// An empty table for `seats` seats with the generator seeded by `seed`.
    pub fn new(seats: u32, seed: u64, logging: bool) -> Self {
        Table {
            seats,
            card_count: 0,
            cards: Vec::new(),
            zones: Vec::new(),
            known: Knowledge::default(),
            placed: Vec::new(),
            teams: None,
            rng: GameRng::from_seed(seed),
            step: 0,
            logging,
            events: Vec::new(),
            event_bytes: 0,
        }
    }

    /// Define a card; returns its id. Its properties stay with the script
    /// until [`Table::add_definitions`] fetches them.
    pub fn new_card(&mut self) -> CardId {
        self.known.add_card();
        self.placed.push(false);
        self.card_count += 1;
        self.card_count
    }

    /// Define cards up to id `count` (the script numbers its cards and
    /// tells the core how many there are when it needs to know). Never
    /// forgets a card; at most [`MAX_CARDS`].
    pub fn define_cards(&mut self, count: CardId) -> Result<()> {
        if count > MAX_CARDS {
            return Err(CoreError::Rule(format!(
                "a game may define at most {MAX_CARDS} cards, not {count}"
            )));
        }
        while self.card_count < count {
            self.new_card();
        }
        Ok(())
    }

    /// Whether some defined cards have not been fetched yet.
    pub fn missing_definitions(&self) -> bool {
        (self.cards.len() as u32) < self.card_count
    }

    /// Add the definitions of the next cards (in id order).
    pub fn add_definitions(&mut self, defs: Vec<Map<String, Value>>) {
        for props in defs {
            if self.cards.len() as u32 >= self.card_count {
                break;
            }
            let id = self.cards.len() as CardId + 1;
            let name = props
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_string();
            self.cards.push(CardDef { id, name, props });
        }
    }

    fn check_card_id(&self, id: CardId) -> Result<()> {
        if id == 0 || id > self.card_count {
            return Err(CoreError::Rule(format!("no card with id {id}")));
        }
        Ok(())
    }

    /// Create a zone; returns its id. Names are unique per owner.
    pub fn new_zone(
        &mut self,
        name: String,
        owner: Option<Seat>,
        visibility: Visibility,
    ) -> Result<ZoneId> {
        if let Some(s) = owner {
            if s == 0 || s > self.seats {
                return Err(CoreError::Rule(format!(
                    "zone '{name}': owner {s} is not a seat (1..{})",
                    self.seats
                )));
            }
        }
        if self
            .zones
            .iter()
            .any(|z| z.name == name && z.owner == owner)
        {
            return Err(CoreError::Rule(format!(
                "zone '{name}' (owner {owner:?}) already exists"
            )));
        }
        if self.zones.len() >= MAX_ZONES {
            return Err(CoreError::Rule(format!(
                "zone '{name}': a game may make at most {MAX_ZONES} zones"
            )));
        }
        let id = self.zones.len() as ZoneId + 1;
        self.zones.push(Zone {
            id,
            name,
            owner,
            visibility,
            cards: Vec::new(),
        });
        Ok(id)
    }

    /// The card with this id (once the definitions are fetched).
    pub fn card(&self, id: CardId) -> Result<&CardDef> {
        id.checked_sub(1)
            .and_then(|i| self.cards.get(i as usize))
            .ok_or_else(|| CoreError::Rule(format!("no card with id {id}")))
    }

    /// The zone with this id.
    pub fn zone(&self, id: ZoneId) -> Result<&Zone> {
        id.checked_sub(1)
            .and_then(|i| self.zones.get(i as usize))
            .ok_or_else(|| CoreError::Rule(format!("no zone with id {id}")))
    }

    fn zone_mut(&mut self, id: ZoneId) -> Result<&mut Zone> {
        id.checked_sub(1)
            .and_then(|i| self.zones.get_mut(i as usize))
            .ok_or_else(|| CoreError::Rule(format!("no zone with id {id}")))
    }

    /// Find a zone by name and owner.
    pub fn find_zone(&self, name: &str, owner: Option<Seat>) -> Option<&Zone> {
        self.zones
            .iter()
            .find(|z| z.name == name && z.owner == owner)
    }

    /// Move `card` from zone `from` to the top (or bottom) of zone `to`.
    /// The card must be in `from`: this is what conserves cards.
    pub fn move_card(
        &mut self,
        card: CardId,
        from: ZoneId,
        to: ZoneId,
        bottom: bool,
    ) -> Result<()> {
        self.move_card_as(card, from, to, bottom, MoveHow::Move)
    }

    /// [`Table::move_card`], saying what moved it (a draw must take the
    /// top card of `from`).
    pub fn move_card_as(
        &mut self,
        card: CardId,
        from: ZoneId,
        to: ZoneId,
        bottom: bool,
        how: MoveHow,
    ) -> Result<()> {
        let all = knowledge::all_seats(self.seats);
        let (src, dst) = (self.zone(from)?, self.zone(to)?);
        let pos = src.cards.iter().rposition(|&c| c == card).ok_or_else(|| {
            CoreError::Rule(format!("card {card} is not in zone '{}'", src.label()))
        })?;
        let was_top = pos + 1 == src.cards.len();
        if how == MoveHow::Draw && !was_top {
            return Err(CoreError::Rule(format!(
                "card {card} is not the top card of zone '{}': it cannot be drawn",
                src.label()
            )));
        }
        let (left, seen) = (
            knowledge::sees_departure(src, was_top, all),
            knowledge::sees_arrival(dst, all),
        );
        self.known.moved(card, left, seen);
        self.zone_mut(from)?.cards.remove(pos);
        let dst = self.zone_mut(to)?;
        if bottom {
            dst.cards.insert(0, card);
        } else {
            dst.cards.push(card);
        }
        if self.logging {
            self.push(EventKind::Move {
                card,
                from,
                to,
                how,
                bottom,
            });
        }
        Ok(())
    }

    /// Move every card of `from` onto the top of `to`, keeping their order.
    pub fn move_all(&mut self, from: ZoneId, to: ZoneId) -> Result<()> {
        self.zone(to)?;
        if from == to {
            return Ok(());
        }
        let mut cards = std::mem::take(&mut self.zone_mut(from)?.cards);
        // A whole zone moving is seen by all: who knew a card still knows.
        let seen = knowledge::sees_arrival(self.zone(to)?, knowledge::all_seats(self.seats));
        for &card in &cards {
            self.known
                .moved(card, knowledge::all_seats(self.seats), seen);
        }
        if self.logging {
            for &card in &cards {
                self.push(EventKind::Move {
                    card,
                    from,
                    to,
                    how: MoveHow::All,
                    bottom: false,
                });
            }
        }
        self.zone_mut(to)?.cards.extend_from_slice(&cards);
        // `from` keeps its room for cards (a trick, a hand) instead of
        // growing it again card by card.
        cards.clear();
        self.zone_mut(from)?.cards = cards;
        Ok(())
    }

    /// Deal `n` cards to each zone of `to` in turn, one at a time from the
    /// top of `from`. Moves nothing when `from` holds too few cards.
    pub fn deal(&mut self, from: ZoneId, to: &[ZoneId], n: usize) -> Result<()> {
        for &z in to {
            self.zone(z)?;
            if z == from {
                return Err(CoreError::Rule("deal: a zone cannot deal to itself".into()));
            }
        }
        // Every check before the first card moves: a deal that cannot be
        // done whole changes nothing (a count so large that it overflows
        // is refused as too many, not wrapped round).
        let src = self.zone(from)?;
        let need = n.saturating_mul(to.len());
        if src.cards.len() < need {
            return Err(CoreError::Rule(format!(
                "deal: zone '{}' has {} cards, {} needed",
                src.label(),
                src.cards.len(),
                if need == usize::MAX {
                    format!("{n} × {}", to.len())
                } else {
                    need.to_string()
                }
            )));
        }
        let all = knowledge::all_seats(self.seats);
        for _ in 0..n {
            for &z in to {
                let (src, dst) = (self.zone(from)?, self.zone(z)?);
                if let Some(&card) = src.cards.last() {
                    let (left, seen) = (
                        knowledge::sees_departure(src, true, all),
                        knowledge::sees_arrival(dst, all),
                    );
                    self.known.moved(card, left, seen);
                }
                let card = self
                    .zone_mut(from)?
                    .cards
                    .pop()
                    .ok_or_else(|| CoreError::Rule("deal: ran out of cards".into()))?;
                self.zone_mut(z)?.cards.push(card);
                if self.logging {
                    self.push(EventKind::Move {
                        card,
                        from,
                        to: z,
                        how: MoveHow::Deal,
                        bottom: false,
                    });
                }
            }
        }
        Ok(())
    }

    /// Put a card that is in no zone yet into a zone (setup only).
    pub fn place_new(&mut self, card: CardId, to: ZoneId) -> Result<()> {
        self.check_card_id(card)?;
        let seen = knowledge::sees_arrival(self.zone(to)?, knowledge::all_seats(self.seats));
        match self.placed.get_mut(card as usize - 1) {
            Some(p) if !*p => *p = true,
            _ => return Err(CoreError::Rule(format!("card {card} is already placed"))),
        }
        self.known.set(card, seen);
        if self.logging {
            self.push(EventKind::Place { card, to });
        }
        self.zone_mut(to)?.cards.push(card);
        Ok(())
    }

    /// The cards whose place `view` does not know, and the owners of the
    /// zones they lie in (other than the seat whose view it is).
    pub fn unknown_to(&self, view: impl Into<Viewpoint>) -> (Vec<CardId>, Vec<Seat>) {
        let view = view.into();
        let me = match view {
            Viewpoint::Seat(s) => Some(s),
            Viewpoint::EverySeat => None,
        };
        let mut cards = Vec::new();
        let mut owners = Vec::new();
        for z in &self.zones {
            for &c in &z.cards {
                if !self.knows(view, c) {
                    cards.push(c);
                    if let Some(o) = z.owner.filter(|&o| Some(o) != me && !owners.contains(&o)) {
                        owners.push(o);
                    }
                }
            }
        }
        (cards, owners)
    }

    /// Whether `view` knows where `card` is: the seat does, or (every
    /// seat's view) some seat does.
    fn knows(&self, view: Viewpoint, card: CardId) -> bool {
        match view {
            Viewpoint::Seat(s) => self.known.knows(s, card),
            Viewpoint::EverySeat => self.known.of(card) != 0,
        }
    }

    /// Whether `view` sees only how many cards `zone` holds: the seat
    /// does, or (every seat's view) every seat does.
    fn sees_count_only(&self, view: Viewpoint, zone: &Zone) -> bool {
        match view {
            Viewpoint::Seat(s) => zone.sight(Some(s)) == Sight::Count,
            Viewpoint::EverySeat => (1..=self.seats).all(|s| zone.sight(Some(s)) == Sight::Count),
        }
    }

    /// Deal again, at random, every card whose place `view` does not know
    /// (a seat's view, or every seat's: the cards no seat knows), into the
    /// places those cards fill now (so every zone keeps its size), and
    /// shuffle the order of the zones `view` sees only the size of. A
    /// card `view` knows about never moves to another zone; a card only
    /// takes the place of a card with the same back (`back[card]`, from
    /// [`crate::Game::guessing`]: what a player sees of a face-down card), and
    /// never lands in a zone of an owner for whom `may_hold(owner, card)` is
    /// false (what play has shown, e.g. a suit a player could not follow),
    /// unless no deal satisfies that (then it is ignored). The game's own
    /// generator is reseeded from `rng` (a search must not foresee the real
    /// shuffles). Returns the zones that changed.
    pub fn determinize(
        &mut self,
        view: impl Into<Viewpoint>,
        rng: &mut GameRng,
        may_hold: &dyn Fn(Seat, CardId) -> bool,
        back: &[u32],
    ) -> Vec<ZoneId> {
        let view = view.into();
        let back_of = |c: CardId| back.get(c as usize).copied().unwrap_or(0);
        // The unknown cards, by back: (zone, position, owner) and card.
        let mut groups: BTreeMap<u32, (Vec<Slot>, Vec<CardId>)> = BTreeMap::new();
        for (zi, z) in self.zones.iter().enumerate() {
            for (pos, &c) in z.cards.iter().enumerate() {
                if !self.knows(view, c) {
                    let g = groups.entry(back_of(c)).or_default();
                    g.0.push((zi, pos, z.owner));
                    g.1.push(c);
                }
            }
        }
        let allowed = |owner: Option<Seat>, card: CardId| owner.is_none_or(|o| may_hold(o, card));
        let mut changed = vec![false; self.zones.len()];
        for (slots, mut cards) in groups.into_values() {
            // Dealt from a canonical order: the guess depends on which cards
            // are unknown and where the free places are, never on where the
            // unknown cards really are.
            cards.sort_unstable();
            let dealt = deal_within(&slots, &cards, &allowed, rng).unwrap_or_else(|| {
                rng.shuffle(&mut cards);
                cards
            });
            for ((zi, pos, _), c) in slots.into_iter().zip(dealt) {
                if self.zones[zi].cards[pos] != c {
                    self.zones[zi].cards[pos] = c;
                    changed[zi] = true;
                }
            }
        }
        let count_only: Vec<bool> = self
            .zones
            .iter()
            .map(|z| z.cards.len() > 1 && self.sees_count_only(view, z))
            .collect();
        for ((zi, z), shuffle) in self.zones.iter_mut().enumerate().zip(count_only) {
            if shuffle {
                shuffle_within_backs(&mut z.cards, &back_of, rng);
                changed[zi] = true;
            }
        }
        self.rng = GameRng::from_seed(rng.next_u64());
        changed
            .iter()
            .enumerate()
            .filter(|(_, &c)| c)
            .map(|(zi, _)| zi as ZoneId + 1)
            .collect()
    }

    /// Put card `to` wherever card `from` is, for every pair of `map` (a
    /// permutation of some cards: each card it takes away is put somewhere
    /// else), and move what the seats know of where it is with it; returns
    /// the zones that changed. A guess at the hidden cards read back into
    /// an earlier position of the game (the same cards swapped there as
    /// the guess swaps now), for a search that asks how likely the moves
    /// the other seats made were under that guess.
    pub fn relabel(&mut self, map: &BTreeMap<CardId, CardId>) -> Vec<ZoneId> {
        if map.is_empty() {
            return Vec::new();
        }
        let before = self.known.clone();
        for (&from, &to) in map {
            self.known.set(to, before.of(from));
        }
        let mut changed = Vec::new();
        for (zi, z) in self.zones.iter_mut().enumerate() {
            let mut any = false;
            for c in z.cards.iter_mut() {
                if let Some(&to) = map.get(c) {
                    *c = to;
                    any = true;
                }
            }
            if any {
                changed.push(zi as ZoneId + 1);
            }
        }
        changed
    }

    /// Slot by slot, the cards that `guess` (a copy of this table with some
    /// cards dealt again: [`Table::determinize`]) holds where this table
    /// holds others: pairs (card here, card there). Zones that differ in
    /// size are skipped.
    pub fn swapped_in(&self, guess: &Table) -> BTreeMap<CardId, CardId> {
        let mut map = BTreeMap::new();
        for (mine, theirs) in self.zones.iter().zip(&guess.zones) {
            if mine.cards.len() != theirs.cards.len() {
                continue;
            }
            for (&a, &b) in mine.cards.iter().zip(&theirs.cards) {
                if a != b {
                    map.insert(a, b);
                }
            }
        }
        // Only a permutation reads back without doubling a card.
        let mut taken: Vec<CardId> = map.keys().copied().collect();
        let mut given: Vec<CardId> = map.values().copied().collect();
        given.sort_unstable();
        taken.sort_unstable();
        if taken != given {
            map.clear();
        }
        map
    }

    /// Put a zone's cards in card-id order (bottom = lowest id); returns
    /// the new order.
    pub fn sort(&mut self, zone: ZoneId) -> Result<Vec<CardId>> {
        let z = self.zone_mut(zone)?;
        z.cards.sort_unstable();
        let order = z.cards.clone();
        if self.logging {
            self.push(EventKind::Sort { zone });
        }
        Ok(order)
    }

    /// Shuffle a zone with the game's generator; returns the new order.
    pub fn shuffle(&mut self, zone: ZoneId) -> Result<Vec<CardId>> {
        let mut cards = std::mem::take(&mut self.zone_mut(zone)?.cards);
        self.rng.shuffle(&mut cards);
        let order = cards.clone();
        self.zone_mut(zone)?.cards = cards;
        if self.logging {
            self.push(EventKind::Shuffle {
                zone,
                order: order.clone(),
            });
        }
        Ok(order)
    }

    /// Record a script event (nothing when the game records no events).
    pub fn script_event(&mut self, name: String, data: Value, to: Option<Seat>) {
        if self.logging {
            self.push(EventKind::Script { name, data, to });
        }
    }

    fn push(&mut self, kind: EventKind) {
        let event = Event {
            step: self.step,
            kind,
        };
        self.event_bytes += event.approx_size();
        self.events.push(event);
    }

    /// Take the events recorded so far.
    pub fn take_events(&mut self) -> Vec<Event> {
        self.event_bytes = 0;
        std::mem::take(&mut self.events)
    }

    /// Check that every card defined is in exactly one zone.
    pub fn check_conservation(&self) -> Result<()> {
        let mut seen = vec![0u32; self.card_count as usize];
        for z in &self.zones {
            for &c in &z.cards {
                let slot = c
                    .checked_sub(1)
                    .and_then(|i| seen.get_mut(i as usize))
                    .ok_or_else(|| {
                        CoreError::Rule(format!("zone '{}' holds unknown card {c}", z.label()))
                    })?;
                *slot += 1;
            }
        }
        for (i, n) in seen.iter().enumerate() {
            if *n != 1 {
                let name = self.cards.get(i).map_or("?", |c| c.name.as_str());
                return Err(CoreError::Rule(format!(
                    "card {} ({name}) is in {n} zones",
                    i + 1
                )));
            }
        }
        Ok(())
    }

    /// The team index (0-based) of a seat, when playing in teams.
    pub fn team_of(&self, seat: Seat) -> Option<usize> {
        self.teams
            .as_ref()
            .and_then(|t| t.iter().position(|team| team.contains(&seat)))
    }

    /// Whether `viewer` may see where `card` is, given the zones a move went between.
    pub fn move_visible_to(&self, from: ZoneId, to: ZoneId, viewer: Seat) -> bool {
        let sees = |z: ZoneId| {
            self.zone(z)
                .map(|z| z.sight(Some(viewer)) == Sight::All)
                .unwrap_or(false)
        };
        sees(from) || sees(to)
    }
}

/// A place a card fills: zone index, position in the zone, the zone's owner.
type Slot = (usize, usize, Option<Seat>);

/// Shuffle a zone's cards so that every position keeps the back it had (a
/// zone of one back, the usual case, is shuffled as a whole).
fn shuffle_within_backs(cards: &mut [CardId], back_of: &dyn Fn(CardId) -> u32, rng: &mut GameRng) {
    let first = cards.first().map(|&c| back_of(c));
    if cards.iter().all(|&c| Some(back_of(c)) == first) {
        rng.shuffle(cards);
        return;
    }
    let mut by_back: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (pos, &c) in cards.iter().enumerate() {
        by_back.entry(back_of(c)).or_default().push(pos);
    }
    for positions in by_back.into_values() {
        let mut these: Vec<CardId> = positions.iter().map(|&p| cards[p]).collect();
        rng.shuffle(&mut these);
        for (p, c) in positions.into_iter().zip(these) {
            cards[p] = c;
        }
    }
}

/// A random deal of `cards` into `slots` (zone, position, owner) where
/// every card is `allowed` in its slot's owner's zone: the slots whose
/// owner accepts the fewest cards are filled first, each with a random
/// allowed card; when a few tries find no such deal, a matching of
/// cards to places is searched for. `None` when no deal exists.
fn deal_within(
    slots: &[Slot],
    cards: &[CardId],
    allowed: &dyn Fn(Option<Seat>, CardId) -> bool,
    rng: &mut GameRng,
) -> Option<Vec<CardId>> {
    // How many of the cards each owner may hold, counted once per owner
    // (places of one owner are many: a hand).
    let mut counted: Vec<(Option<Seat>, usize)> = Vec::new();
    let mut choice = |owner: Option<Seat>| match counted.iter().find(|(o, _)| *o == owner) {
        Some(&(_, n)) => n,
        None => {
            let n = cards.iter().filter(|&&c| allowed(owner, c)).count();
            counted.push((owner, n));
            n
        }
    };
    let mut order: Vec<usize> = (0..slots.len()).collect();
    order.sort_by_cached_key(|&i| choice(slots[i].2));
    for _ in 0..20 {
        let mut pool = cards.to_vec();
        rng.shuffle(&mut pool);
        let mut out = vec![0; slots.len()];
        let mut complete = true;
        for &i in &order {
            match pool.iter().position(|&c| allowed(slots[i].2, c)) {
                Some(p) => out[i] = pool.swap_remove(p),
                None => {
                    complete = false;
                    break;
                }
            }
        }
        if complete {
            return Some(out);
        }
    }
    match_within(slots, cards, allowed, rng)
}

/// A deal of `cards` to `slots` with every card `allowed` in its slot, when
/// there is one: a maximum bipartite matching (augmenting paths), the
/// cards tried in a random order. Not tried beyond a million pairs of a
/// card and a place (the search is quadratic; its recursion as deep as
/// there are places).
fn match_within(
    slots: &[Slot],
    cards: &[CardId],
    allowed: &dyn Fn(Option<Seat>, CardId) -> bool,
    rng: &mut GameRng,
) -> Option<Vec<CardId>> {
    if slots.len().saturating_mul(cards.len()) > 1_000_000 {
        return None;
    }
    let mut order: Vec<usize> = (0..cards.len()).collect();
    rng.shuffle(&mut order);
    let fits: Vec<Vec<usize>> = slots
        .iter()
        .map(|s| {
            order
                .iter()
                .copied()
                .filter(|&c| allowed(s.2, cards[c]))
                .collect()
        })
        .collect();
    // card_of[slot] = index into `cards`; slot_of[card] = slot.
    let mut card_of: Vec<Option<usize>> = vec![None; slots.len()];
    let mut slot_of: Vec<Option<usize>> = vec![None; cards.len()];
    fn augment(
        slot: usize,
        fits: &[Vec<usize>],
        seen: &mut [bool],
        card_of: &mut [Option<usize>],
        slot_of: &mut [Option<usize>],
    ) -> bool {
        for &c in &fits[slot] {
            if seen[c] {
                continue;
            }
            seen[c] = true;
            let free = match slot_of[c] {
                None => true,
                Some(other) => augment(other, fits, seen, card_of, slot_of),
            };
            if free {
                slot_of[c] = Some(slot);
                card_of[slot] = Some(c);
                return true;
            }
        }
        false
    }
    for slot in 0..slots.len() {
        let mut seen = vec![false; cards.len()];
        if !augment(slot, &fits, &mut seen, &mut card_of, &mut slot_of) {
            return None;
        }
    }
    card_of.into_iter().map(|c| c.map(|c| cards[c])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        let mut t = Table::new(2, 1, true);
        for _ in 0..4 {
            t.new_card();
        }
        let deck = t
            .new_zone("deck".into(), None, Visibility::Hidden)
            .unwrap_or(0);
        for c in 1..=4 {
            assert!(t.place_new(c, deck).is_ok());
        }
        // Each placement is logged; the tests below count what follows.
        assert!(t
            .events
            .iter()
            .all(|e| matches!(e.kind, EventKind::Place { to, .. } if to == deck)));
        assert_eq!(t.events.len(), 4);
        t.events.clear();
        t.new_zone("hand".into(), Some(1), Visibility::Owner)
            .unwrap_or(0);
        t
    }

    #[test]
    fn moves_conserve_cards_and_refuse_missing_ones() {
        let mut t = table();
        assert!(t.move_card(4, 1, 2, false).is_ok());
        assert!(t.check_conservation().is_ok());
        let err = t.move_card(4, 1, 2, false);
        assert!(matches!(err, Err(CoreError::Rule(m)) if m.contains("not in zone 'deck'")));
        assert_eq!(t.zones[1].cards, vec![4]);
        assert_eq!(t.events.len(), 1);
    }

    #[test]
    fn move_all_keeps_order_and_logs_each_card() {
        let mut t = table();
        let before = t.zones[0].cards.clone();
        assert!(t.move_all(1, 2).is_ok());
        assert!(t.zones[0].cards.is_empty());
        assert_eq!(t.zones[1].cards, before);
        assert_eq!(t.events.len(), 4);
        assert!(t.check_conservation().is_ok());
    }

    #[test]
    fn deal_goes_round_and_refuses_a_short_deck() {
        let mut t = table();
        let hand2 = t
            .new_zone("hand".into(), Some(2), Visibility::Owner)
            .unwrap_or(0);
        let top = t.zones[0].cards.clone();
        assert!(t.deal(1, &[3, 2], 3).is_err(), "6 cards from 4");
        assert_eq!(t.zones[0].cards, top, "nothing moved");
        assert!(t.deal(1, &[hand2, 2], 2).is_ok());
        assert_eq!(t.zones[2].cards, vec![top[3], top[1]]);
        assert_eq!(t.zones[1].cards, vec![top[2], top[0]]);
        assert!(t.check_conservation().is_ok());
        assert_eq!(t.events.len(), 4);
    }

    #[test]
    fn knowledge_follows_what_each_seat_saw() {
        // deck (hidden) = 1, hand#1 = 2, hand#2 = 3, pile (top) = 4, table (public) = 5
        let mut t = table();
        let hand2 = t
            .new_zone("hand".into(), Some(2), Visibility::Owner)
            .unwrap_or(0);
        let pile = t
            .new_zone("pile".into(), None, Visibility::Top)
            .unwrap_or(0);
        let public = t
            .new_zone("table".into(), None, Visibility::Public)
            .unwrap_or(0);
        let deck: Vec<u32> = t.zones[0].cards.clone();
        assert!(deck.iter().all(|&c| t.known.of(c) == 0), "a hidden deck");
        assert!(t.deal(1, &[2, hand2], 1).is_ok());
        let (c1, c2) = (deck[3], deck[2]);
        assert!(t.known.knows(1, c1) && !t.known.knows(2, c1));
        assert!(t.known.knows(2, c2) && !t.known.knows(1, c2));
        // Seat 2 plays its card face up: everybody knows it from then on,
        // also once it goes on a pile where only the top shows.
        assert!(t.move_card(c2, hand2, public, false).is_ok());
        assert!(t.known.knows(1, c2));
        assert!(t.move_card(c2, public, pile, false).is_ok());
        assert!(t.move_card(c1, 2, pile, false).is_ok());
        assert!(t.known.knows(2, c2) && t.known.knows(2, c1));
        // Seat 1 takes c2 from under the top: seat 2 no longer knows where it is.
        assert!(t.move_card(c2, pile, 2, false).is_ok());
        assert!(t.known.knows(1, c2) && !t.known.knows(2, c2));
        // A whole zone moved in sight of all keeps what everyone knew.
        assert!(t.move_all(pile, 1).is_ok());
        assert!(t.known.knows(1, c1) && t.known.knows(2, c1));
    }

    /// 20 cards: a hidden deck (zone 1), two hands of 5 (zones 2 and 3) and
    /// an empty public zone (4).
    fn dealt_table() -> Table {
        let mut t = Table::new(2, 3, false);
        for _ in 0..20 {
            t.new_card();
        }
        let deck = t
            .new_zone("deck".into(), None, Visibility::Hidden)
            .unwrap_or(0);
        let h1 = t
            .new_zone("hand".into(), Some(1), Visibility::Owner)
            .unwrap_or(0);
        let h2 = t
            .new_zone("hand".into(), Some(2), Visibility::Owner)
            .unwrap_or(0);
        t.new_zone("table".into(), None, Visibility::Public)
            .unwrap_or(0);
        for c in 1..=20 {
            assert!(t.place_new(c, deck).is_ok());
        }
        assert!(t.deal(deck, &[h1, h2], 5).is_ok());
        t
    }

    #[test]
    fn determinize_moves_only_cards_the_seat_cannot_place() {
        let mut t = dealt_table();
        let (h1, public) = (2, 4);
        let played = t.zones[1].cards[0];
        assert!(t.move_card(played, h1, public, false).is_ok());
        let before = t.clone();
        let mut rng = GameRng::from_seed(9);
        let mut moved_any = false;
        for _ in 0..10 {
            let mut f = before.clone();
            let changed = f.determinize(1, &mut rng, &|_, _| true, &[]);
            assert!(f.check_conservation().is_ok());
            // Seat 1's hand and the public zone are as they were.
            assert_eq!(f.zones[1].cards, before.zones[1].cards);
            assert_eq!(f.zones[3].cards, before.zones[3].cards);
            assert!(!changed.contains(&h1) && !changed.contains(&public));
            // Every zone keeps its size; seat 2's hand is a guess from the unknown cards.
            for (a, b) in f.zones.iter().zip(&before.zones) {
                assert_eq!(a.cards.len(), b.cards.len());
            }
            moved_any |= f.zones[2].cards != before.zones[2].cards;
            assert!(f.zones[2]
                .cards
                .iter()
                .all(|c| !before.zones[1].cards.contains(c)));
        }
        assert!(moved_any, "seat 2's hand is re-dealt");
    }

    #[test]
    fn a_guess_reads_back_as_the_same_swaps_into_an_earlier_table() {
        let earlier = dealt_table();
        let mut now = earlier.clone();
        let (h1, public) = (2, 4);
        let played = now.zones[1].cards[0];
        assert!(now.move_card(played, h1, public, false).is_ok());
        let mut guess = now.clone();
        guess.determinize(1, &mut GameRng::from_seed(3), &|_, _| true, &[]);
        let map = now.swapped_in(&guess);
        assert!(!map.is_empty(), "the guess swapped cards");
        // Only cards seat 1 cannot place are swapped, and they are a
        // permutation: each card taken is put somewhere else.
        assert!(map.keys().all(|&c| !now.known.knows(1, c)));
        let mut taken: Vec<_> = map.keys().collect();
        let mut given: Vec<_> = map.values().collect();
        taken.sort();
        given.sort();
        assert_eq!(taken, given);
        // Read into the earlier table: seat 2's hand there is the guess's,
        // the card seat 1 played is where it was, and who knows each card
        // moves with it.
        let mut back = earlier.clone();
        let changed = back.relabel(&map);
        assert!(back.check_conservation().is_ok());
        assert_eq!(back.zones[2].cards, guess.zones[2].cards);
        assert_eq!(back.zones[1].cards, earlier.zones[1].cards);
        assert!(changed.contains(&3) && !changed.contains(&h1));
        for (&from, &to) in &map {
            assert_eq!(back.known.of(to), earlier.known.of(from));
        }
        // A guess that does not pair up (seat 2's hand and the public zone
        // differ in size, so only the deck's swaps are left, which are no
        // permutation) reads back as nothing.
        let mut odd = guess.clone();
        let card = odd.zones[2].cards.pop().expect("a card");
        odd.zones[3].cards.push(card);
        assert_ne!(
            odd.zones[0].cards, now.zones[0].cards,
            "the deck was dealt again"
        );
        assert!(now.swapped_in(&odd).is_empty());
    }

    #[test]
    fn determinize_keeps_cards_out_of_hands_that_cannot_hold_them() {
        let t = dealt_table();
        // Seat 2 has shown it holds none of the cards 1..=10.
        let may_hold = |owner: Seat, card: CardId| owner != 2 || card > 10;
        let mut rng = GameRng::from_seed(4);
        for _ in 0..20 {
            let mut f = t.clone();
            f.determinize(1, &mut rng, &may_hold, &[]);
            assert!(f.check_conservation().is_ok());
            assert!(
                f.zones[2].cards.iter().all(|&c| c > 10),
                "{:?}",
                f.zones[2].cards
            );
        }
        // An impossible demand is dropped rather than failing.
        let mut f = t.clone();
        f.determinize(1, &mut rng, &|owner, _| owner != 2, &[]);
        assert_eq!(f.zones[2].cards.len(), 5);
        assert!(f.check_conservation().is_ok());
    }

    #[test]
    fn a_deal_the_greedy_tries_miss_is_found_by_matching() {
        // Seat 1 takes only card 3, seat 2 only card 1 or 2, seat 3 only
        // card 1: one deal fits (3, 2, 1), which random tries filling seat
        // 2 with card 1 miss; the matching finds it.
        let slots: Vec<Slot> = vec![(0, 0, Some(1)), (1, 0, Some(2)), (2, 0, Some(3))];
        let allowed = |owner: Option<Seat>, c: CardId| match owner {
            Some(1) => c == 3,
            Some(2) => c <= 2,
            _ => c == 1,
        };
        for seed in 0..20 {
            let mut rng = GameRng::from_seed(seed);
            let deal = match_within(&slots, &[1, 2, 3], &allowed, &mut rng);
            assert_eq!(deal, Some(vec![3, 2, 1]));
            let deal = deal_within(&slots, &[1, 2, 3], &allowed, &mut rng);
            assert_eq!(deal, Some(vec![3, 2, 1]));
        }
        let none = |_: Option<Seat>, c: CardId| c == 1;
        let mut rng = GameRng::from_seed(1);
        assert_eq!(match_within(&slots, &[1, 2, 3], &none, &mut rng), None);
    }

    #[test]
    fn determinize_swaps_a_card_only_with_cards_of_its_back() {
        // Cards 1..=20 are dealt from one deck; give the even ones another
        // back: seat 1's guesses put an even card only where an even card is.
        let t = dealt_table();
        let back: Vec<u32> = (0..=20).map(|c| c % 2).collect();
        let mut rng = GameRng::from_seed(5);
        let mut moved_any = false;
        for _ in 0..20 {
            let mut f = t.clone();
            f.determinize(1, &mut rng, &|_, _| true, &back);
            assert!(f.check_conservation().is_ok());
            for (a, b) in f.zones.iter().zip(&t.zones) {
                let backs = |z: &Zone| z.cards.iter().map(|&c| c % 2).collect::<Vec<_>>();
                assert_eq!(backs(a), backs(b), "zone {}", a.name);
            }
            moved_any |= f.zones[2].cards != t.zones[2].cards;
        }
        assert!(moved_any, "seat 2's hand is re-dealt");
    }

    #[test]
    fn conservation_detects_a_duplicate() {
        let mut t = table();
        t.zones[1].cards.push(1);
        assert!(t.check_conservation().is_err());
    }

    #[test]
    fn zone_owner_must_be_a_seat() {
        let mut t = table();
        assert!(t
            .new_zone("hand".into(), Some(3), Visibility::Owner)
            .is_err());
        assert!(t
            .new_zone("hand".into(), Some(1), Visibility::Owner)
            .is_err());
    }

    #[test]
    fn sight_follows_visibility() {
        let t = table();
        let hand = &t.zones[1];
        assert_eq!(hand.sight(Some(1)), Sight::All);
        assert_eq!(hand.sight(Some(2)), Sight::Count);
        assert_eq!(hand.sight(None), Sight::All);
        assert_eq!(t.zones[0].sight(Some(1)), Sight::Count);
    }
}
