//! Reading one seat's view of a deal: the deal in the game's notation with `?` for every card the
//! seat cannot see, turned into that seat's information set.
//!
//! The `?` are filled with the pack's remaining items in some order, the game's own deal parser
//! checks the result, and the information set of the seat is taken from it. An information set
//! holds only what its seat sees, so the filling cannot show through, unless a `?` stands where
//! the seat sees the card: other fillings are compared to refuse that. A view deal may also
//! write cards the seat does not see (they are ignored).

use crate::game::{Rng, Seat, rng_from_seed};
use crate::games::GameDef;

/// How many orders of the `?` fillings are tried before giving up: a filling can only fail a
/// rule of the game that the pack alone does not show (Sueca's turned-up card must be in the
/// dealer's hand), which a random filling meets with a fair chance.
pub const VIEW_FILLS: usize = 1000;

/// Splits a deal text into tokens (runs of characters other than whitespace and `|`), with
/// their byte ranges, so `?` can be replaced in place and everything else is kept verbatim.
fn tokens(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let sep = c.is_whitespace() || c == '|';
        match (sep, start) {
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

/// The multiset key of a deal token: cards in canonical notation (`10s` → `TS`); tokens with
/// `=` (headers such as `dealer=3`) are not pack items and give `None`.
fn pack_item(token: &str) -> Option<String> {
    if token.contains('=') || token == "?" {
        return None;
    }
    Some(match token.parse::<crate::cards::Card>() {
        Ok(c) => c.to_string(),
        Err(_) => token.to_string(),
    })
}

/// `seat`'s information set from its view of a deal (`?` for what it cannot see).
pub fn view_info_set<G: GameDef>(
    config: &G::Config,
    seat: Seat,
    deal: &str,
    rng: &mut Rng,
) -> Result<G::InfoSet, String> {
    let filling = Filling::of::<G>(config, deal)?;
    let state = filling.draw::<G>(config, rng)?;
    if seat >= state.num_seats() {
        return Err(format!(
            "seat {seat} does not exist: {} has seats 0 to {}",
            G::NAME,
            state.num_seats() - 1
        ));
    }
    let info = state.info_set(seat);
    // The filling must not show through: a `?` where the seat sees the card (its own hand, or
    // what the game shows every seat) would be a card made up for it. Other fillings then give
    // another information set.
    if filling.has_holes() {
        for _ in 0..VIEW_CHECKS {
            if filling.draw::<G>(config, rng)?.info_set(seat) != info {
                return Err(format!(
                    "the view deal has '?' where seat {seat} sees the cards (its own hand, or \
                     what {} shows every seat): write them",
                    G::NAME
                ));
            }
        }
    }
    Ok(info)
}

/// How many other fillings of a view's `?` are compared with the first: a `?` the seat can see
/// gives the same information set in all of them only if each drew the same card for it.
pub const VIEW_CHECKS: usize = 8;

/// A view deal read once: where its `?` stand and the pack items left to fill them with.
struct Filling<'a> {
    deal: &'a str,
    /// Byte ranges of the `?` tokens.
    holes: Vec<(usize, usize)>,
    /// The pack's items not written in the deal, sorted (one per hole).
    pool: Vec<String>,
}

impl<'a> Filling<'a> {
    /// Reads `deal`: errors on items outside the pack, items written twice, and a number of `?`
    /// other than the number of items not written.
    fn of<G: GameDef>(config: &G::Config, deal: &'a str) -> Result<Filling<'a>, String> {
        let spans = tokens(deal);
        if !spans.iter().any(|&(a, b)| &deal[a..b] == "?") {
            return Ok(Filling {
                deal,
                holes: Vec::new(),
                pool: Vec::new(),
            });
        }
        let reference = G::new_game(config, &mut rng_from_seed(0)).deal_text();
        let mut pool: Vec<String> = tokens(&reference)
            .into_iter()
            .filter_map(|(a, b)| pack_item(&reference[a..b]))
            .collect();
        let mut holes = Vec::new();
        for &(a, b) in &spans {
            let t = &deal[a..b];
            if t == "?" {
                holes.push((a, b));
            } else if let Some(item) = pack_item(t) {
                match pool.iter().position(|p| *p == item) {
                    Some(i) => {
                        pool.swap_remove(i);
                    }
                    None => {
                        return Err(format!(
                            "'{t}' in the view deal is not in the {} pack, or is written twice",
                            G::NAME
                        ));
                    }
                }
            }
        }
        if holes.len() != pool.len() {
            return Err(format!(
                "the view deal has {} '?' but {} items of the pack are not written in it ({})",
                holes.len(),
                pool.len(),
                pool.join(" ")
            ));
        }
        pool.sort();
        Ok(Filling { deal, holes, pool })
    }

    /// True when the deal has `?` to fill.
    fn has_holes(&self) -> bool {
        !self.holes.is_empty()
    }

    /// A full state: the deal itself when it has no `?`, else a random valid filling (up to
    /// [`VIEW_FILLS`] orders tried).
    fn draw<G: GameDef>(&self, config: &G::Config, rng: &mut Rng) -> Result<G, String> {
        if !self.has_holes() {
            return G::from_deal(config, self.deal).map_err(|e| e.to_string());
        }
        let mut pool = self.pool.clone();
        let mut last_error = String::new();
        for _ in 0..VIEW_FILLS {
            // Fisher–Yates with the crate's unbiased bounded draw.
            for i in (1..pool.len()).rev() {
                let j = crate::cards::random_below(rng, i as u32 + 1) as usize;
                pool.swap(i, j);
            }
            let mut text = String::with_capacity(self.deal.len() + pool.len() * 2);
            let mut at = 0;
            for (&(a, b), item) in self.holes.iter().zip(&pool) {
                text.push_str(&self.deal[at..a]);
                text.push_str(item);
                at = b;
            }
            text.push_str(&self.deal[at..]);
            match G::from_deal(config, &text) {
                Ok(state) => return Ok(state),
                Err(e) => last_error = e.to_string(),
            }
        }
        Err(format!(
            "no filling of the view deal's '?' is a valid {} deal: {last_error}",
            G::NAME
        ))
    }
}
