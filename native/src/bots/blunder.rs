//! `blunder` (`bones.bots.blunder`): its base bot's move, except that with
//! chance `rate`, drawn from the seat's own generator, it plays a legal
//! move uniformly at random. At each decision with a choice it draws
//! `random()` once; below `rate`, `below(n)` picks the move. Both cores
//! draw the same two numbers in the same order, so they blunder alike.

use crate::kernel::rng::Rng;

/// The bot a `blunder` plays when it does not blunder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    Greedy,
    Heuristic,
}

/// A `blunder` bot's settings: its base bot and the chance of a random move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blunder {
    pub base: Base,
    pub rate: f64,
}

/// `bones.bots.blunder`'s defaults.
pub const DEFAULT: Blunder = Blunder { base: Base::Heuristic, rate: 0.55 };

impl Blunder {
    /// The settings of a bot text (`blunder`, `blunder:rate=0.4`,
    /// `blunder:base=greedy:rate=0.3`), or None when it names no blunder
    /// bot or gives a value out of range (Python checked the text first).
    pub fn parse(text: &str) -> Option<Blunder> {
        let mut parts = text.split(':');
        if parts.next()? != "blunder" {
            return None;
        }
        let mut out = DEFAULT;
        for part in parts {
            let (key, value) = part.split_once('=')?;
            match key.trim() {
                "base" => {
                    out.base = match value.trim() {
                        "greedy" => Base::Greedy,
                        "heuristic" => Base::Heuristic,
                        _ => return None,
                    }
                }
                "rate" => {
                    let rate: f64 = value.trim().parse().ok()?;
                    if !(0.0..=1.0).contains(&rate) {
                        return None;
                    }
                    out.rate = rate;
                }
                _ => return None,
            }
        }
        Some(out)
    }

    /// The index of the random move this decision among `n` legal moves,
    /// or None to play the base bot's (one draw, and a second on a blunder).
    #[inline]
    pub fn slip(&self, rng: &mut Rng, n: usize) -> Option<usize> {
        (rng.random() < self.rate).then(|| rng.index(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_texts_python_writes() {
        assert_eq!(Blunder::parse("blunder"), Some(DEFAULT));
        assert_eq!(
            Blunder::parse("blunder:base=greedy:rate=0.25"),
            Some(Blunder { base: Base::Greedy, rate: 0.25 })
        );
        assert_eq!(Blunder::parse("blunder:rate=1.5"), None);
        assert_eq!(Blunder::parse("blunder:depth=2"), None);
        assert_eq!(Blunder::parse("heuristic"), None);
    }

    #[test]
    fn blunders_at_its_rate_from_the_seat_s_generator() {
        let b = Blunder { base: Base::Heuristic, rate: 0.3 };
        let mut rng = Rng::new(7);
        let trials = 20_000;
        let mut slips = 0;
        for _ in 0..trials {
            if let Some(i) = b.slip(&mut rng, 5) {
                assert!(i < 5);
                slips += 1;
            }
        }
        let share = f64::from(slips) / f64::from(trials);
        assert!((share - 0.3).abs() < 0.02, "{share}");
        let never = Blunder { base: Base::Greedy, rate: 0.0 };
        assert!((0..1000).all(|_| never.slip(&mut rng, 3).is_none()));
        let always = Blunder { base: Base::Greedy, rate: 1.0 };
        assert!((0..1000).all(|_| always.slip(&mut rng, 3).is_some()));
    }
}
