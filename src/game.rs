//! The traits every game implements, and the restricted [`View`] an agent is handed.
//!
//! A [`Game`] is a small, cheap-to-copy state with moves that are `Copy` and legal moves that
//! come back as a [`MoveSet`] (a [`CardSet`] in card games), so "is this move legal in this
//! world?" is one bit test. [`HiddenInfo`] adds determinization: sampling a full state uniformly
//! among those consistent with what one seat has seen. Agents never touch the true state; they get
//! a [`View`], which can only reveal it through the explicitly named
//! [`View::true_state_cheating`].

use std::fmt::{Debug, Display};
use std::hash::Hash;

use std::marker::PhantomData;

use rand::Rng as _;

use crate::cards::{Card, CardSet};
use crate::mask::MoveMask;

/// The random generator used everywhere: fast, seedable, reproducible across platforms.
pub type Rng = rand_xoshiro::Xoshiro256PlusPlus;

/// A seat at the table, `0..num_seats`. Play passes 0 → 1 → 2 → 3 → 0.
pub type Seat = usize;

/// The largest number of seats any game has.
pub const MAX_SEATS: usize = 4;

/// A move with a bit of its own in its game's [`MoveMask`]s: search trees keep a node's
/// children by these bits, so "untried legal moves" is one AND-NOT.
pub trait TreeMove: Copy {
    /// The mask type of the game's move sets: `u64` for games with at most 64 distinct moves,
    /// [`crate::mask::Wide`] for up to 256.
    type Mask: MoveMask;
    /// The move's bit, below `Mask::BITS`, distinct for distinct moves.
    fn bit(self) -> u32;
    /// The move whose bit is `bit`.
    fn from_bit(bit: u32) -> Self;
}

/// A set of legal moves: a [`MoveMask`] underneath (64 bits in card games).
///
/// Card games use [`CardSet`]; games with other moves use [`MoveBits`] or their own bit set.
/// Search trees keep each node's children by move bit ([`MoveSet::bits`]).
pub trait MoveSet<M: TreeMove>: Clone + Send {
    /// Number of moves.
    fn len(&self) -> usize;
    /// True when there is no move.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// True when `mv` is one of the moves.
    fn contains(&self, mv: M) -> bool;
    /// The `k`-th move in the set's own order (`k < len()`).
    fn nth(&self, k: usize) -> M;
    /// A uniformly random move; the set must not be empty.
    fn random(&self, rng: &mut Rng) -> M {
        self.nth(crate::cards::random_below(rng, self.len() as u32) as usize)
    }
    /// Calls `f` for each move in order.
    fn for_each(&self, f: impl FnMut(M));
    /// The set as a mask, bit [`TreeMove::bit`] per move.
    fn bits(&self) -> M::Mask;
    /// The move whose bit is `bit`.
    #[inline]
    fn move_of_bit(bit: u32) -> M {
        M::from_bit(bit)
    }
    /// The moves as a vector (for reports and tests, not for hot loops).
    fn to_vec(&self) -> Vec<M> {
        let mut v = Vec::with_capacity(self.len());
        self.for_each(|m| v.push(m));
        v
    }
}

impl MoveSet<Card> for CardSet {
    #[inline]
    fn len(&self) -> usize {
        CardSet::len(*self)
    }
    #[inline]
    fn contains(&self, mv: Card) -> bool {
        CardSet::contains(*self, mv)
    }
    #[inline]
    fn nth(&self, k: usize) -> Card {
        CardSet::nth(*self, k)
    }
    #[inline]
    fn random(&self, rng: &mut Rng) -> Card {
        CardSet::random(*self, rng)
    }
    #[inline]
    fn for_each(&self, f: impl FnMut(Card)) {
        self.iter().for_each(f)
    }
    #[inline]
    fn bits(&self) -> u64 {
        self.0
    }
}

impl TreeMove for Card {
    type Mask = u64;
    #[inline]
    fn bit(self) -> u32 {
        self.index() as u32
    }
    #[inline]
    fn from_bit(bit: u32) -> Card {
        CardSet(1 << bit).lowest()
    }
}

/// A move with a small index, so that sets of them can be [`MoveBits`].
pub trait IndexedMove: Copy {
    /// The move's index: below 64, distinct for distinct moves.
    fn index(self) -> u32;
    /// The move whose [`IndexedMove::index`] is `index`.
    fn from_index(index: u32) -> Self;
}

/// A set of [`IndexedMove`]s as one 64-bit mask, in index order: the move set of games whose
/// moves are not cards.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MoveBits<M>(u64, PhantomData<M>);

impl<M: IndexedMove> MoveBits<M> {
    /// The set of `moves`.
    pub fn of(moves: &[M]) -> MoveBits<M> {
        MoveBits(moves.iter().fold(0, |b, m| b | 1 << m.index()), PhantomData)
    }
}

impl<M: IndexedMove + Debug> Debug for MoveBits<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut list = f.debug_list();
        let mut bits = self.0;
        while bits != 0 {
            list.entry(&M::from_index(bits.trailing_zeros()));
            bits &= bits - 1;
        }
        list.finish()
    }
}

impl<M: IndexedMove + Send> MoveSet<M> for MoveBits<M> {
    #[inline]
    fn len(&self) -> usize {
        self.0.count_ones() as usize
    }
    #[inline]
    fn contains(&self, mv: M) -> bool {
        self.0 >> mv.index() & 1 != 0
    }
    #[inline]
    fn nth(&self, k: usize) -> M {
        // CardSet's select works on the raw bits.
        M::from_index(CardSet(self.0).nth(k).index() as u32)
    }
    #[inline]
    fn for_each(&self, mut f: impl FnMut(M)) {
        let mut bits = self.0;
        while bits != 0 {
            f(M::from_index(bits.trailing_zeros()));
            bits &= bits - 1;
        }
    }
    #[inline]
    fn bits(&self) -> u64 {
        self.0
    }
}

impl<M: IndexedMove> TreeMove for M {
    type Mask = u64;
    #[inline]
    fn bit(self) -> u32 {
        self.index()
    }
    #[inline]
    fn from_bit(bit: u32) -> M {
        M::from_index(bit)
    }
}

/// Uniform random indices for playouts, cut four at a time from one generator output.
///
/// A playout draws one small index per move (below the number of legal moves, at most 64), so a
/// whole 64-bit generator step per move is wasteful: `Draws` keeps the output and hands out its
/// four 16-bit slices in turn, each made exactly uniform by Lemire's multiply-shift with its
/// rejection step (which redraws with probability below `n / 2^16`, from slices of fresh
/// outputs, leaving the kept one alone). The same generator and the same sequence of bounds and
/// [`Draws::restart`]s always give the same indices.
#[derive(Clone, Copy, Debug, Default)]
pub struct Draws {
    bits: u64,
    left: u32,
}

impl Draws {
    /// An empty buffer: the first draw takes a fresh generator output.
    #[inline]
    pub const fn new() -> Draws {
        Draws { bits: 0, left: 0 }
    }

    /// The next 16 random bits.
    #[inline(always)]
    fn next16(&mut self, rng: &mut Rng) -> u32 {
        if self.left == 0 {
            self.bits = rng.next_u64();
            self.left = 4;
        }
        let x = self.bits as u16 as u32;
        self.bits >>= 16;
        self.left -= 1;
        x
    }

    /// Drops what is left of the kept output, so that the next draw starts a fresh one.
    ///
    /// Game-specific playouts call it at the start of every trick: a trick's (at most four)
    /// draws then come from one output, and with no leftover to count the compiler drops the
    /// bookkeeping from the unrolled trick.
    #[inline(always)]
    pub fn restart(&mut self) {
        self.left = 0;
    }

    /// A uniform integer in `0..n` (`0 < n <= 2^16`; larger bounds take a whole 32-bit draw).
    /// Always inlined: it is a handful of instructions, and in a playout that plays a trick
    /// at a time the bookkeeping of the kept output folds away only where it is inlined.
    #[inline(always)]
    pub fn below(&mut self, rng: &mut Rng, n: u32) -> u32 {
        debug_assert!(n > 0);
        if n > 1 << 16 {
            return crate::cards::random_below(rng, n);
        }
        match lemire16(self.next16(rng), n) {
            Some(v) => v,
            None => Draws::redraw(rng, n),
        }
    }

    /// After a rejection: slices of fresh outputs until one is accepted. Kept out of line (it
    /// runs with probability below `n / 2^16`) and away from the kept output, so the draws that
    /// follow stay where they were.
    #[cold]
    #[inline(never)]
    fn redraw(rng: &mut Rng, n: u32) -> u32 {
        loop {
            let word = rng.next_u64();
            for i in 0..4 {
                if let Some(v) = lemire16((word >> (16 * i)) as u32 & 0xFFFF, n) {
                    return v;
                }
            }
        }
    }

    /// A uniformly random member of a non-empty move set.
    #[inline]
    pub fn pick<M: TreeMove, S: MoveSet<M>>(&mut self, rng: &mut Rng, moves: &S) -> M {
        moves.nth(self.below(rng, moves.len() as u32) as usize)
    }
}

/// Test support for games that override [`Game::random_playout`]: plays fewer than `max_plies`
/// random moves from `start` (stopping at the end), then asserts that `random_playout` from there
/// ends in exactly the state `reference` reaches with a generator seeded alike, and leaves the
/// generator at the same point.
#[cfg(test)]
pub(crate) fn assert_playout_matches_reference<G: Game + PartialEq + std::fmt::Debug>(
    start: G,
    rng: &mut Rng,
    max_plies: u32,
    seed: u64,
    reference: impl FnOnce(&mut G, &mut Rng),
) {
    let mut g = start;
    for _ in 0..crate::cards::random_below(rng, max_plies) {
        if g.is_terminal() {
            break;
        }
        g.play(g.legal_moves().random(rng));
    }
    let (mut fast, mut slow) = (g.clone(), g.clone());
    let (mut r1, mut r2) = (rng_from_seed(seed), rng_from_seed(seed));
    fast.random_playout(&mut r1);
    reference(&mut slow, &mut r2);
    assert!(fast.is_terminal());
    assert_eq!(fast, slow, "from {g:?}");
    assert_eq!(r1, r2);
}

/// [`playout_by_moves`], with a [`Draws::restart`] before every move for which
/// `restart(state, previous move)` says so: the reference for game-specific playouts that restart
/// their draws at each trick (their tests say where).
pub fn playout_by_moves_restarting<G: Game>(
    state: &mut G,
    rng: &mut Rng,
    mut restart: impl FnMut(&G, Option<G::Move>) -> bool,
) {
    let mut draws = Draws::new();
    let mut previous = None;
    while !state.is_terminal() {
        if restart(state, previous) {
            draws.restart();
        }
        let mv = draws.pick(rng, &state.legal_moves());
        state.play(mv);
        previous = Some(mv);
    }
}

/// Lemire's multiply-shift on 16 random bits `x`: `x * n / 2^16`, or `None` for the few `x`
/// that must be rejected so that every value in `0..n` has exactly `floor(2^16 / n)` of them.
#[inline(always)]
const fn lemire16(x: u32, n: u32) -> Option<u32> {
    let m = x * n;
    let low = m & 0xFFFF;
    // `low < n` is rare; only then is the threshold (a division) worked out.
    if low < n && low < rejection_threshold(n) {
        None
    } else {
        Some(m >> 16)
    }
}

/// `2^16 mod n`: how many low parts Lemire's method rejects.
#[cold]
#[inline(never)]
const fn rejection_threshold(n: u32) -> u32 {
    (1u32 << 16).wrapping_sub(n) % n
}

/// Plays uniformly random legal moves until the game ends, one [`Game::play`] at a time, drawing
/// each move with one [`Draws`].
///
/// This is [`Game::random_playout`]'s default and its reference: a game that overrides
/// `random_playout` with a specialised loop must play the same moves as this does (or as
/// [`playout_by_moves_restarting`] does, if it restarts its draws at each trick) for the same
/// generator, and end in exactly the same state; its tests check that.
#[inline]
pub fn playout_by_moves<G: Game>(state: &mut G, rng: &mut Rng) {
    let mut draws = Draws::new();
    while !state.is_terminal() {
        let mv = draws.pick(rng, &state.legal_moves());
        state.play(mv);
    }
}

/// A game state. Cheap to clone (no heap in card games), safe to share between threads.
pub trait Game: Clone + Send + Sync + Debug + 'static {
    /// One move (one action in multi-action games).
    type Move: TreeMove + Eq + Hash + Debug + Display + Send + Sync + 'static;
    /// The set type of legal moves.
    type Moves: MoveSet<Self::Move>;

    /// Number of seats.
    fn num_seats(&self) -> usize;
    /// The seat to move. Meaningless once terminal.
    fn current_seat(&self) -> Seat;
    /// The legal moves of the seat to move; empty only when terminal.
    fn legal_moves(&self) -> Self::Moves;
    /// Plays a legal move. Playing an illegal move is a logic error (checked in debug builds).
    fn play(&mut self, mv: Self::Move);
    /// True when the game is over.
    fn is_terminal(&self) -> bool;
    /// The result for `seat` at a terminal state: win 1, tie 0.5, loss 0 (team games score the
    /// seat's team). This is what search maximises by default.
    fn reward(&self, seat: Seat) -> f64;
    /// Every seat's [`Game::reward`] at once (entries past [`Game::num_seats`] are 0), as the
    /// end of every search iteration needs them. Games whose reward compares all seats' scores
    /// override it to compare them once rather than once per seat.
    fn rewards(&self) -> [f64; MAX_SEATS] {
        let mut r = [0.0; MAX_SEATS];
        for (seat, slot) in r.iter_mut().enumerate().take(self.num_seats()) {
            *slot = self.reward(seat);
        }
        r
    }
    /// The game's own points for `seat` (card points, tricks, penalty points…).
    fn score(&self, seat: Seat) -> f64;
    /// The team of `seat`; seats are their own team unless the game has partnerships.
    fn team(&self, seat: Seat) -> usize {
        seat
    }
    /// The score margin of `seat` (its team's, in partnership games) at a terminal state,
    /// scaled to −1…1: +1 is the best result the game's points allow against the others, −1 the
    /// worst. The default, for games without points beyond the result, is `2·reward − 1`.
    fn margin(&self, seat: Seat) -> f64 {
        2.0 * self.reward(seat) - 1.0
    }
    /// The share of the other sides `seat` finished ahead of at a terminal state, a tie with
    /// one counting half: in a game of several players, how far up the table the seat
    /// finished, which a first-or-nothing [`Game::reward`] does not tell. The default, for
    /// games of two sides (two players or two teams), is [`Game::reward`] itself.
    fn placing(&self, seat: Seat) -> f64 {
        self.reward(seat)
    }
    /// The game's match units for `seat` at a terminal state, if it has them (Sueca and Bisca:
    /// ±1, ±2 or ±4, the thesis's "scores difference" scale).
    fn match_units(&self, _seat: Seat) -> Option<f64> {
        None
    }
    /// How well `seat` is doing now, for agents that judge positions without playing them out
    /// (the turn planners): by default its points minus the best points of another team, the
    /// NTBOE paper's score difference. Games in which points count against a seat override it.
    fn heuristic(&self, seat: Seat) -> f64 {
        let team = self.team(seat);
        let best_other = (0..self.num_seats())
            .filter(|&s| self.team(s) != team)
            .map(|s| self.score(s))
            .fold(f64::NEG_INFINITY, f64::max);
        if best_other.is_finite() {
            self.score(seat) - best_other
        } else {
            self.score(seat)
        }
    }
    /// Plays uniformly random legal moves until the game ends: the rollout of every search
    /// iteration. The default is [`playout_by_moves`]; games override it with a tighter loop that
    /// must play the moves that one (or [`playout_by_moves_restarting`]) plays for the same
    /// generator, and end in the same state.
    #[inline]
    fn random_playout(&mut self, rng: &mut Rng) {
        playout_by_moves(self, rng)
    }
    /// A move chosen by cheap game knowledge and no search, for heuristic playouts
    /// (`playout=heuristic`): win a trick cheaply when it pays, otherwise shed the least valuable
    /// card, and so on, per game. The default is a uniformly random legal move. Must not be
    /// called at a terminal state.
    fn heuristic_move(&self, rng: &mut Rng) -> Self::Move {
        self.legal_moves().random(rng)
    }
    /// True where the game overrides [`Game::heuristic_move`] with a rule of its own: elsewhere
    /// `playout=heuristic` would be random playouts under another name, and is refused.
    const HAS_HEURISTIC: bool = false;
    /// True where [`Game::score`] counts penalties, fewer being better (Hearts): reports then
    /// say so beside the points.
    const POINTS_ARE_PENALTIES: bool = false;
    /// The moves [`Game::heuristic_move`] chooses among uniformly, where the game can list
    /// them (`None`: it cannot say). Inference reads it as a model of how others play.
    fn heuristic_moves(&self) -> Option<Self::Moves> {
        None
    }
    /// How the learned opponent model reads legal move `mv` here, from the mover's own view
    /// (its hand and the cards everyone has played, nothing hidden from it): one parameter
    /// index per feature table of [`Game::opponent_model`]. `None` (the default): the game has
    /// no learned model.
    fn model_features(
        &self,
        mv: Self::Move,
    ) -> Option<crate::search::opponent_model::ModelFeatures> {
        let _ = mv;
        None
    }
    /// Every legal move here with its [`Game::model_features`], in `legal_moves` order, passed
    /// to `visit`; false when some legal move has no features (no learned model, a move the
    /// model does not describe), and what was visited before then must be discarded. The
    /// default reads each move through `model_features`; the card games override it to read
    /// the mover's view (hand, trick, cards gone) once for all their cards, since inference
    /// scores every legal card of every play it replays.
    fn visit_model_features(
        &self,
        mut visit: impl FnMut(Self::Move, crate::search::opponent_model::ModelFeatures),
    ) -> bool
    where
        Self: Sized,
    {
        let legal = self.legal_moves();
        for k in 0..legal.len() {
            let mv = legal.nth(k);
            match self.model_features(mv) {
                Some(features) => visit(mv, features),
                None => return false,
            }
        }
        true
    }
    /// The game's learned opponent model (`models/`, fitted by `cardsearch fit-model`);
    /// `None` (the default) where the game has none.
    fn opponent_model() -> Option<&'static crate::search::opponent_model::OpponentModel>
    where
        Self: Sized,
    {
        None
    }
    /// The number of parameters [`Game::model_features`] indexes (0: no learned model).
    fn model_params() -> usize
    where
        Self: Sized,
    {
        0
    }
    /// Parses a move in the notation `Display` writes; `Err` names what is wrong.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;
    /// Tricks completed so far, for trick-taking games (replays group moves by trick).
    fn tricks_completed(&self) -> Option<u32> {
        None
    }
    /// How many cards of the current trick were played before the next move, for trick-taking
    /// games (EPIC rollouts group n-grams by it); `None` for games without tricks.
    fn trick_position(&self) -> Option<usize> {
        None
    }
    /// What `seat` observes of the move the seat to move makes next: the move itself (true), or
    /// only that a move was made (false). Most moves are seen by everyone; a seat that cannot
    /// see one (another seat's Hearts pass, the hidden hand of `secret`) gets that one token, so
    /// information-set search does not branch on it for that seat: SO-ISMCTS draws such a move
    /// at random when the searcher cannot see it, and MO-ISMCTS leaves that seat's tree where it
    /// is while the mover's tree chooses. The mover always sees its own move.
    fn next_move_seen_by(&self, _seat: Seat) -> bool {
        true
    }
    /// The search options this game's `preset=strong` sets on top of the general preset
    /// ([`crate::search::config::STRONG_PRESET`]), as comma-separated `key=value` words: the
    /// settings measured strongest in this game (docs/results.md). Options given beside the
    /// preset override both. Empty (the default): the general preset alone.
    const STRONG_PRESET: &'static str = "";
    /// The exact solver of this game's perfect-information positions
    /// ([`crate::solver`]), if it has one; `None` (the default) for games without.
    fn exact() -> Option<&'static dyn crate::solver::Endgame<Self>> {
        None
    }
    /// The position drawn for people (a board game's grid), shown by replays and the engine's
    /// `state`; `None` for games whose deal notation already reads well.
    fn picture(&self) -> Option<String> {
        None
    }
}

/// Why no consistent deal could be sampled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    /// The constraints admit no deal at all.
    #[error("no deal is consistent with what is known: {0}")]
    Inconsistent(String),
    /// A written deal is not a valid deal.
    #[error("invalid deal: {0}")]
    Invalid(String),
}

/// Draws full states among those consistent with one observer's information, each as likely
/// as the deal makes it: uniformly in every game but ASMACAG, whose board, dealt after the
/// hands from the numbers they left, makes hands of more numbers likelier.
///
/// Built once per decision ([`InfoSet::sampler`]) from the information set alone, so the
/// counting work is shared by every sample of that decision and nothing in it (its `Debug`
/// included) can hold a card the observer has not seen. [`DealSampler::sample`] must not
/// allocate.
pub trait DealSampler<G>: Clone + Send + Sync {
    /// One consistent full state at random, as likely as the deal makes it.
    fn sample(&self, rng: &mut Rng) -> G;
    /// How many full states are consistent (saturating at `u128::MAX`): 1 when the information
    /// set determines the state, as in every game once all cards are played.
    fn count(&self) -> u128;
    /// Calls `f` with every state [`sample`](Self::sample) can draw, once each, in a fixed
    /// order, and returns true; returns false without calling `f` if the sampler cannot list
    /// them (the default). Meant for small counts: the hybrid endgame solves every deal, and
    /// the engine's view mode checks whether every state a finished game may be in ends
    /// alike. The states are equally likely in every game but ASMACAG, whose distinct
    /// opponent's hands are not (and which no solver weighs).
    fn for_each_state(&self, _f: &mut dyn FnMut(G)) -> bool {
        false
    }
}

/// One seat's information set: everything that seat knows about the game in progress, built
/// from what it has seen and nothing else.
///
/// That is the seat's own cards, the cards it saw played, passed, received or drawn and by
/// whom, public cards, hand and stock sizes, and every constraint the rules let it prove (voids
/// and the other inferences each game documents). Two states the seat cannot tell apart have
/// equal information sets, so everything built from one (samplers, agents' decisions) is the
/// same for both. The true state never enters: a harness extracts the information set with
/// [`HiddenInfo::info_set`], and a client that follows one seat (the engine's view mode)
/// updates it move by move with [`InfoSet::observe`].
pub trait InfoSet<G: Game>: Clone + std::fmt::Debug + PartialEq + Send + Sync {
    /// The sampler of the states consistent with this information.
    type Sampler: DealSampler<G> + std::fmt::Debug + PartialEq;

    /// The seat whose knowledge this is.
    fn observer(&self) -> Seat;
    /// Number of seats.
    fn num_seats(&self) -> usize;
    /// The seat to move, when the observer knows it (in Hearts, after passing, the holder of
    /// 2♣ leads, which the others learn only when it does); `None` once the game is over.
    fn seat_to_move(&self) -> Option<Seat>;
    /// True when the game is over.
    fn is_terminal(&self) -> bool;
    /// The observer's legal moves; meaningful when the observer is to move (legal moves are
    /// then a function of its own cards and public facts).
    fn legal_moves(&self) -> G::Moves;
    /// Where the seat to move stands in a turn of several actions (ASMACAG: three a turn):
    /// `(actions left in this turn, this one included; actions in a whole turn)`. Public in
    /// every game here; `(1, 1)` where a turn is one move. Search agents with `turn_share`
    /// split a turn's budget by it.
    fn turn_progress(&self) -> (u32, u32) {
        (1, 1)
    }
    /// Prepares exactly uniform sampling of the consistent states. An error is a proof that
    /// no state is consistent, and says why.
    fn sampler(&self) -> Result<Self::Sampler, DealError>;
    /// Updates this information with a move by `seat` as the observer saw it: `mv` is `None`
    /// when the observer cannot see which move it was (another seat's Hearts pass), and
    /// `hand_after` is the observer's hand after the move when the move gave it cards only it
    /// sees (a Bisca draw, the cards passed to it in Hearts). Consistency is decided exactly:
    /// the update is refused, with the reason and the information left unchanged, unless some
    /// state consistent with the information so far has `seat` to move with `mv` legal (and
    /// leaves the observer holding `hand_after`).
    fn observe(
        &mut self,
        seat: Seat,
        mv: Option<G::Move>,
        hand_after: Option<CardSet>,
    ) -> Result<(), DealError>;
}

/// A game whose seats may not see everything.
pub trait HiddenInfo: Game {
    /// True for games with nothing hidden from anyone (Pentago-Swap), known without a state: a
    /// search agent's label (it reads no hidden card) is decided before it sees one. Such a game
    /// sets this and uses [`PerfectInformation`] as its information set; search agents then run
    /// plain UCT on the one world, the state itself.
    const PERFECT_INFORMATION: bool = false;

    /// What one seat knows.
    type InfoSet: InfoSet<Self>;

    /// The information set of `observer` in this state: what that seat has seen, nothing more.
    fn info_set(&self, observer: Seat) -> Self::InfoSet;

    /// True when no seat ever lacks information (every search then has one world).
    fn is_perfect_information(&self) -> bool {
        Self::PERFECT_INFORMATION
    }

    /// A sampler of the states `observer` cannot tell apart from this one.
    fn deal_sampler(&self, observer: Seat) -> Result<SamplerOf<Self>, DealError> {
        self.info_set(observer).sampler()
    }

    /// Every move that can be legal for the seat to move in any state that `observer` cannot
    /// tell apart from this one by the public moves that led here and its own knowledge when
    /// its search began: a superset of [`Game::legal_moves`] that is the same in every
    /// determinization an ISMCTS walk brings to this point.
    ///
    /// A search tree sizes each node's children block by it (one slot per move), so tighter is
    /// smaller; a move missing from it would never be searched (debug builds assert that it is
    /// not). Only what `observer` knows may decide it: in trick games, its own hand when it is
    /// to move, otherwise the cards not yet played and not in its hand, less the cards the
    /// mover has proven it does not hold (a suit it failed to follow, say).
    fn possible_moves(&self, observer: Seat) -> Self::Moves;

    /// The state as dealt that this one continues (every hand as it was before the first move),
    /// in games where hands change only by their own plays; `None` where draws or passes make
    /// it unknowable from the state (Bisca, Hearts with passing) or the game does not say.
    /// Replaying the game's moves from it gives this state back; inference does that on each
    /// candidate determinization to score how well it explains the others' plays.
    fn dealt(&self) -> Option<Self> {
        None
    }

    /// A state as dealt that `history` (every move since the deal, in order) leads from to this
    /// one: [`HiddenInfo::dealt`] where the state keeps its deal; in games whose draws it does
    /// not keep (Bisca: which stock card went to whom, and when), one drawn uniformly from the
    /// deals that lead here, so that averaging over draws weighs every way the past could have
    /// gone alike. `None` where neither can be done. Inference replays `history` from it.
    fn rewind(&self, history: &[Seen<Self::Move>], rng: &mut Rng) -> Option<Self> {
        let _ = (history, rng);
        self.dealt()
    }

    /// True when this game, as configured, can [`HiddenInfo::rewind`] to its deal from any of
    /// its states (given the moves since): what inference (`infer=N`) needs to weigh deals.
    fn can_rewind(&self) -> bool {
        false
    }

    /// One determinization: a random state consistent with what `observer` knows, drawn by
    /// [`DealSampler::sample`].
    fn determinize(&self, observer: Seat, rng: &mut Rng) -> Result<Self, DealError> {
        Ok(self.deal_sampler(observer)?.sample(rng))
    }
}

/// The sampler type of a game's information sets.
pub type SamplerOf<G> = <<G as HiddenInfo>::InfoSet as InfoSet<G>>::Sampler;

/// [`HiddenInfo::possible_moves`] of a card game in which a seat's hand changes only by its own
/// plays: `observer`'s hand when it is `mover`, else the cards still out (`unplayed`) that are
/// not in the observer's hand, less the cards `mover` has proven it does not hold
/// (`mover_excluded`: the suits it failed to follow, and what else the rules prove).
#[inline]
pub fn possible_cards(
    mover: Seat,
    observer: Seat,
    observer_hand: CardSet,
    unplayed: CardSet,
    mover_excluded: CardSet,
) -> CardSet {
    if mover == observer {
        observer_hand
    } else {
        unplayed - observer_hand - mover_excluded
    }
}

/// The information set of a game in which every seat sees everything: the state itself. Its
/// sampler has one state to give.
#[derive(Clone, Debug, PartialEq)]
pub struct PerfectInformation<G> {
    state: G,
    observer: Seat,
}

impl<G> PerfectInformation<G> {
    /// `observer`'s information set in `state`.
    pub fn new(state: G, observer: Seat) -> PerfectInformation<G> {
        PerfectInformation { state, observer }
    }

    /// The state, which every seat sees whole.
    pub fn state(&self) -> &G {
        &self.state
    }
}

impl<G: Game> DealSampler<G> for PerfectInformation<G> {
    #[inline]
    fn sample(&self, _rng: &mut Rng) -> G {
        self.state.clone()
    }

    fn count(&self) -> u128 {
        1
    }

    fn for_each_state(&self, f: &mut dyn FnMut(G)) -> bool {
        f(self.state.clone());
        true
    }
}

impl<G: Game + PartialEq> InfoSet<G> for PerfectInformation<G> {
    type Sampler = PerfectInformation<G>;

    fn observer(&self) -> Seat {
        self.observer
    }

    fn num_seats(&self) -> usize {
        self.state.num_seats()
    }

    fn seat_to_move(&self) -> Option<Seat> {
        (!self.state.is_terminal()).then(|| self.state.current_seat())
    }

    fn is_terminal(&self) -> bool {
        self.state.is_terminal()
    }

    fn legal_moves(&self) -> G::Moves {
        self.state.legal_moves()
    }

    fn sampler(&self) -> Result<Self, DealError> {
        Ok(self.clone())
    }

    fn observe(
        &mut self,
        seat: Seat,
        mv: Option<G::Move>,
        hand_after: Option<CardSet>,
    ) -> Result<(), DealError> {
        check_mover(self.seat_to_move(), seat)?;
        let Some(mv) = mv else {
            return Err(DealError::Inconsistent(
                "every move of this game is seen by every seat".into(),
            ));
        };
        if hand_after.is_some() {
            return Err(DealError::Inconsistent(
                "this game has no hidden hands to report".into(),
            ));
        }
        if !self.state.legal_moves().contains(mv) {
            return Err(DealError::Inconsistent(format!(
                "{mv} is not legal for seat {seat}"
            )));
        }
        self.state.play(mv);
        Ok(())
    }
}

/// Checks that `seat` may move when the information set says `to_move` is to: errors when the
/// game is over or another seat is known to be on move.
pub fn check_mover(to_move: Option<Seat>, seat: Seat) -> Result<(), DealError> {
    match to_move {
        Some(s) if s != seat => Err(DealError::Inconsistent(format!(
            "seat {seat} is not to move: seat {s} is"
        ))),
        _ => Ok(()),
    }
}

/// What an agent may look at: the game as one seat knows it.
///
/// A `View` holds that seat's [`InfoSet`]: its legal moves, its samplers and everything an
/// agent reads come from there. Only a view made by [`View::lending_truth`] also holds the
/// true state, for cheating baselines ([`crate::agents::view_for`] makes one for an agent that
/// says it cheats, and only for it), through [`View::true_state_cheating`]; every other view
/// has no true state at all, so an honest agent cannot reach a hidden card even by mistake.
///
/// ```compile_fail
/// # use cardsearch::{View, games::Tricks, Rng};
/// fn peek(view: &View<Tricks>) { let _ = view.truth; } // the true state is private
/// ```
#[derive(Clone)]
pub struct View<'a, G: HiddenInfo> {
    info: G::InfoSet,
    truth: Option<&'a G>,
    history: &'a [Seen<G::Move>],
}

/// One move of the game as one seat saw it: who moved, and the move unless that seat could not
/// see it ([`Game::next_move_seen_by`]).
pub type Seen<M> = (Seat, Option<M>);

/// Every seat's record of the moves so far, each as that seat saw them: what a harness keeps so
/// that each agent's view carries its own history ([`View::new`]). Inference reads the
/// others' plays from it, and tree reuse and kept n-gram statistics the moves since the agent's
/// last decision; a view given an empty record (`&[]`) has those off, without a word.
#[derive(Clone, Debug)]
pub struct SeatHistories<M> {
    seats: Vec<Vec<Seen<M>>>,
}

impl<M: Copy> SeatHistories<M> {
    /// Empty records for `seats` seats.
    pub fn new(seats: usize) -> SeatHistories<M> {
        SeatHistories {
            seats: vec![Vec::new(); seats],
        }
    }

    /// Adds `mv`, about to be played by the seat to move in `state`, to every seat's record as
    /// that seat sees it.
    pub fn record<G: Game<Move = M>>(&mut self, state: &G, mv: M) {
        let mover = state.current_seat();
        for (seat, history) in self.seats.iter_mut().enumerate() {
            history.push((mover, state.next_move_seen_by(seat).then_some(mv)));
        }
    }

    /// `seat`'s record.
    pub fn of(&self, seat: Seat) -> &[Seen<M>] {
        &self.seats[seat]
    }

    /// `seat`'s view of `state`, with its record; no true state lent (see
    /// [`crate::agents::view_for`] for a harness whose agent may be a cheating baseline).
    pub fn view<'a, G: HiddenInfo<Move = M>>(&'a self, state: &'a G, seat: Seat) -> View<'a, G> {
        View::new(state, seat, self.of(seat))
    }
}

impl<'a, G: HiddenInfo> View<'a, G> {
    /// `observer`'s view of `state`: its information set and `history`, the moves of the game
    /// so far, in order, as the observer saw them (a harness keeps one such record per seat,
    /// [`SeatHistories`]). Inference, tree reuse and `nast_decay` read it; the information set
    /// does not keep the order of the plays. Pass `&[]` only where there is no record to give
    /// (a position set up from a deal string, or made by random plies in a test): those agents
    /// then act as at a fresh position. The true state is not lent: see
    /// [`View::lending_truth`].
    pub fn new(state: &'a G, observer: Seat, history: &'a [Seen<G::Move>]) -> View<'a, G> {
        View {
            info: state.info_set(observer),
            truth: None,
            history,
        }
    }

    /// [`View::new`] with the true state lent, hidden cards included, for a cheating baseline
    /// ([`crate::agents::view_for`] calls it for an agent that says it cheats, and only then).
    pub fn lending_truth(
        state: &'a G,
        observer: Seat,
        history: &'a [Seen<G::Move>],
    ) -> View<'a, G> {
        View {
            truth: Some(state),
            ..View::new(state, observer, history)
        }
    }

    /// A view from an information set alone, with the observer's `history` (see
    /// [`View::new`]): there is no true state behind it.
    pub fn from_info_set(info: G::InfoSet, history: &'a [Seen<G::Move>]) -> View<'a, G> {
        View {
            info,
            truth: None,
            history,
        }
    }

    /// The moves so far as the observer saw them; empty when the caller gave an empty record.
    pub fn history(&self) -> &'a [Seen<G::Move>] {
        self.history
    }

    /// The observer's information set.
    pub fn info_set(&self) -> &G::InfoSet {
        &self.info
    }

    /// The seat this view belongs to.
    pub fn observer(&self) -> Seat {
        self.info.observer()
    }

    /// Number of seats.
    pub fn num_seats(&self) -> usize {
        self.info.num_seats()
    }

    /// True when the game is over.
    pub fn is_terminal(&self) -> bool {
        self.info.is_terminal()
    }

    /// The observer's legal moves. Only meaningful when the observer is to move.
    pub fn legal_moves(&self) -> G::Moves {
        debug_assert_eq!(self.info.seat_to_move(), Some(self.observer()));
        self.info.legal_moves()
    }

    /// Where the seat to move stands in its turn ([`InfoSet::turn_progress`]).
    pub fn turn_progress(&self) -> (u32, u32) {
        self.info.turn_progress()
    }

    /// A sampler of states consistent with the observer's information.
    pub fn deal_sampler(&self) -> Result<SamplerOf<G>, DealError> {
        self.info.sampler()
    }

    /// One uniformly random state consistent with the observer's information.
    pub fn determinize(&self, rng: &mut Rng) -> Result<G, DealError> {
        Ok(self.info.sampler()?.sample(rng))
    }

    /// The true state, hidden cards included, when the view was made by
    /// [`View::lending_truth`]. Only cheating baselines call this, and every agent that does
    /// reports itself as cheating, so harnesses lend it to them alone.
    pub fn true_state_cheating(&self) -> Option<&'a G> {
        self.truth
    }
}

/// Convenience: a seeded generator.
pub fn rng_from_seed(seed: u64) -> Rng {
    rand::SeedableRng::seed_from_u64(seed)
}

/// Draws a fresh 64-bit seed from a generator (used to derive independent streams).
pub fn next_seed(rng: &mut Rng) -> u64 {
    rng.next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lemire16_is_exactly_uniform_over_all_16_bit_inputs() {
        // Exhaustive: every value in 0..n must come from the same number of the 2^16 inputs.
        for n in [1u32, 2, 3, 7, 10, 13, 52, 64, 1000, 40_000, 65_535, 65_536] {
            let mut counts = vec![0u32; n as usize];
            for x in 0..1u32 << 16 {
                if let Some(v) = lemire16(x, n) {
                    counts[v as usize] += 1;
                }
            }
            let each = (1u32 << 16) / n;
            assert!(counts.iter().all(|&c| c == each), "n={n}");
        }
    }

    #[test]
    fn draws_cut_four_indices_from_each_generator_output() {
        // With n = 2^16 every 16-bit slice is accepted and returned as is, low slice first.
        let (mut a, mut b) = (rng_from_seed(9), rng_from_seed(9));
        let mut draws = Draws::new();
        for _ in 0..3 {
            let word = b.next_u64();
            for i in 0..4 {
                assert_eq!(
                    draws.below(&mut a, 1 << 16) as u64,
                    word >> (16 * i) & 0xFFFF
                );
            }
        }
        // Nothing else was taken from the generator.
        assert_eq!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn a_rejection_redraws_from_fresh_outputs_and_keeps_the_rest_of_the_kept_one() {
        // Find a generator output whose first slice is rejected for n = 40,000 and whose other
        // slices are accepted; then the draws are: a fresh output's slices for the first index,
        // and the kept output's second to fourth slices for the next three.
        let n = 40_000u32;
        for seed in 0..1_000 {
            let mut probe = rng_from_seed(seed);
            let word = probe.next_u64();
            let slice = |i: u32| (word >> (16 * i)) as u32 & 0xFFFF;
            if lemire16(slice(0), n).is_some() || (1..4).any(|i| lemire16(slice(i), n).is_none()) {
                continue;
            }
            let mut rng = rng_from_seed(seed);
            let mut draws = Draws::new();
            let first = draws.below(&mut rng, n);
            let mut fresh = rng_from_seed(seed);
            fresh.next_u64();
            assert_eq!(first, Draws::redraw(&mut fresh, n));
            for i in 1..4 {
                assert_eq!(Some(draws.below(&mut rng, n)), lemire16(slice(i), n));
            }
            return;
        }
        panic!("no suitable seed");
    }

    #[test]
    fn restart_starts_a_fresh_output() {
        let (mut a, mut b) = (rng_from_seed(5), rng_from_seed(5));
        let mut draws = Draws::new();
        draws.below(&mut a, 1 << 16);
        draws.restart();
        b.next_u64();
        let word = b.next_u64();
        assert_eq!(draws.below(&mut a, 1 << 16) as u64, word & 0xFFFF);
    }

    #[test]
    fn draws_are_uniform_and_in_range_with_rejections() {
        // n = 40,000 rejects 25,536 of the 65,536 slices, so the retry path runs often.
        // 10 buckets of 4,000 values, 100,000 draws: each count ~ Binomial(1e5, 0.1), sd ≈ 95;
        // 6 sd = 570.
        let mut rng = rng_from_seed(4);
        let mut draws = Draws::new();
        let mut buckets = [0i64; 10];
        for _ in 0..100_000 {
            let v = draws.below(&mut rng, 40_000);
            assert!(v < 40_000);
            buckets[(v / 4_000) as usize] += 1;
        }
        assert!(
            buckets.iter().all(|&c| (c - 10_000).abs() < 570),
            "{buckets:?}"
        );
        // And a small bound: 7 values, 70,000 draws, sd ≈ 92; 6 sd = 554.
        let mut counts = [0i64; 7];
        for _ in 0..70_000 {
            counts[draws.below(&mut rng, 7) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (c - 10_000).abs() < 554),
            "{counts:?}"
        );
    }
}
