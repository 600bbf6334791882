//! Ratings: Glicko-2 (Mark Glickman's system, computed by the
//! `skillratings` crate) in pools, one per variant on the standard 2×6
//! board and per time class.
//!
//! A game's time class comes from its clock, as lichess does: the
//! estimated duration is `initial + 40 × increment` seconds, and
//! - `bullet`: under 3 minutes;
//! - `blitz`: 3 minutes to under 8;
//! - `rapid`: 8 minutes to under 25;
//! - `classical`: 25 minutes or more;
//! - `correspondence`: days per move;
//! - `untimed`: no clock.
//!
//! A pool is named `<variant>-<class>`, e.g. `II-blitz`. Every game is one
//! rating period of its own (each rated game updates both ratings at
//! once), with the system constant τ = 0.5 of Glickman's paper. A new
//! player starts at 1500, deviation 350, volatility 0.06. A rating is
//! provisional (shown with "?") while its deviation is above 110, lichess's
//! threshold.

use std::fmt;
use std::str::FromStr;

use hoyito_core::{Rules, Variant};
use serde::{Serialize, Serializer};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use crate::clock_spec::ClockSpec;

/// A rating is provisional while its deviation is above this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// Glickman's system constant τ (the paper's example uses 0.5).
pub const TAU: f64 = 0.5;

/// A time class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TimeClass {
    /// Estimated duration under 3 minutes.
    Bullet,
    /// 3 to under 8 minutes.
    Blitz,
    /// 8 to under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// Days per move.
    Correspondence,
    /// No clock.
    Untimed,
}

impl TimeClass {
    /// All classes, in order.
    pub const ALL: [TimeClass; 6] = [
        TimeClass::Bullet,
        TimeClass::Blitz,
        TimeClass::Rapid,
        TimeClass::Classical,
        TimeClass::Correspondence,
        TimeClass::Untimed,
    ];

    /// The class of a game with clock `clock` (`None`: untimed).
    pub fn of(clock: Option<ClockSpec>) -> TimeClass {
        let Some(c) = clock else { return TimeClass::Untimed };
        if c.days > 0 {
            return TimeClass::Correspondence;
        }
        let estimate = u64::from(c.initial) + 40 * u64::from(c.increment);
        match estimate {
            0 => TimeClass::Untimed,
            1..180 => TimeClass::Bullet,
            180..480 => TimeClass::Blitz,
            480..1500 => TimeClass::Rapid,
            _ => TimeClass::Classical,
        }
    }

    /// Its name: `bullet`, `blitz`, `rapid`, `classical`,
    /// `correspondence` or `untimed`.
    pub const fn name(self) -> &'static str {
        match self {
            TimeClass::Bullet => "bullet",
            TimeClass::Blitz => "blitz",
            TimeClass::Rapid => "rapid",
            TimeClass::Classical => "classical",
            TimeClass::Correspondence => "correspondence",
            TimeClass::Untimed => "untimed",
        }
    }
}

/// A rating pool: a variant (on the standard 2×6 board) and a time class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pool {
    /// The variant.
    pub variant: Variant,
    /// The time class.
    pub class: TimeClass,
}

impl Pool {
    /// Every pool, by variant then class.
    pub fn all() -> impl Iterator<Item = Pool> {
        Variant::ALL.into_iter().flat_map(|variant| {
            TimeClass::ALL
                .into_iter()
                .map(move |class| Pool { variant, class })
        })
    }
}

impl Pool {
    /// The pool of a game of `rules` with clock `clock`: `None` unless the
    /// rules are a variant's standard 2×6 rules (every option at its
    /// default), the only rated ones.
    pub fn of_game(rules: &Rules, clock: Option<ClockSpec>) -> Option<Pool> {
        let variant = rules.variant();
        (*rules == Rules::standard(variant)).then(|| Pool {
            variant,
            class: TimeClass::of(clock),
        })
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.variant.name(), self.class.name())
    }
}

impl Serialize for Pool {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A name that is no pool.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown rating pool {0:?}: expected <variant>-<class>, the variant I, II or III and the class \
     bullet, blitz, rapid, classical, correspondence or untimed (e.g. \"II-blitz\")"
)]
pub struct UnknownPool(pub String);

impl FromStr for Pool {
    type Err = UnknownPool;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Pool::all()
            .find(|p| p.to_string() == s)
            .ok_or_else(|| UnknownPool(s.to_string()))
    }
}

/// A player's Glicko-2 rating in a pool.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// The rating (1500 at the start).
    pub rating: f64,
    /// The rating deviation (350 at the start).
    pub deviation: f64,
    /// The volatility (0.06 at the start).
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

impl Rating {
    /// Whether the rating is provisional (deviation above
    /// [`PROVISIONAL_DEVIATION`]).
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    /// The rating after one rating period in which the player scored
    /// `results` (each an opponent's rating before the period and the
    /// player's score against them: 1 a win, ½ a draw, 0 a loss).
    pub fn after(self, results: &[(Rating, Score)]) -> Rating {
        let results: Vec<(Glicko2Rating, Outcomes)> =
            results.iter().map(|(r, s)| (r.glicko(), s.outcome())).collect();
        let config = Glicko2Config {
            tau: TAU,
            ..Glicko2Config::new()
        };
        let r = glicko2_rating_period(&self.glicko(), &results, &config);
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// A player's score in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// 1.
    Win,
    /// ½.
    Draw,
    /// 0.
    Loss,
}

impl Score {
    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        }
    }

    /// The opponent's score.
    pub fn flip(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }
}

/// Both ratings after one game between `south` and `north`, where south
/// scored `south_score`.
pub fn after_game(south: Rating, north: Rating, south_score: Score) -> (Rating, Rating) {
    (
        south.after(&[(north, south_score)]),
        north.after(&[(south, south_score.flip())]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// "Example of the Glicko-2 system" in Glickman's paper.
    #[test]
    fn glickmans_worked_example() {
        let player = r(1500.0, 200.0);
        let after = player.after(&[
            (r(1400.0, 30.0), Score::Win),
            (r(1550.0, 100.0), Score::Loss),
            (r(1700.0, 300.0), Score::Loss),
        ]);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
        assert!(after.provisional());
    }

    #[test]
    fn one_game_moves_both_ratings_in_opposite_directions() {
        let (s, n) = after_game(Rating::default(), Rating::default(), Score::Win);
        assert!(s.rating > 1500.0 && n.rating < 1500.0);
        assert!((s.rating - 1500.0 - (1500.0 - n.rating)).abs() < 1e-9);
        let (s, n) = after_game(Rating::default(), Rating::default(), Score::Draw);
        assert!((s.rating - 1500.0).abs() < 1e-9 && (n.rating - 1500.0).abs() < 1e-9);
        assert!(s.deviation < 350.0);
    }

    #[test]
    fn time_classes_from_the_clock() {
        let c = |initial, increment, days| {
            Some(ClockSpec {
                initial,
                increment,
                days,
            })
        };
        assert_eq!(TimeClass::of(None), TimeClass::Untimed);
        assert_eq!(TimeClass::of(c(60, 0, 0)), TimeClass::Bullet);
        assert_eq!(TimeClass::of(c(120, 1, 0)), TimeClass::Bullet);
        assert_eq!(TimeClass::of(c(120, 2, 0)), TimeClass::Blitz);
        assert_eq!(TimeClass::of(c(179, 0, 0)), TimeClass::Bullet);
        assert_eq!(TimeClass::of(c(180, 0, 0)), TimeClass::Blitz);
        assert_eq!(TimeClass::of(c(300, 3, 0)), TimeClass::Blitz);
        assert_eq!(TimeClass::of(c(600, 0, 0)), TimeClass::Rapid);
        assert_eq!(TimeClass::of(c(900, 15, 0)), TimeClass::Classical);
        assert_eq!(TimeClass::of(c(0, 0, 3)), TimeClass::Correspondence);
    }

    #[test]
    fn only_standard_single_boards_have_a_pool() {
        let blitz = c(300, 3, 0);
        assert_eq!(
            Pool::of_game(&Rules::standard(Variant::III), blitz),
            Some(Pool {
                variant: Variant::III,
                class: TimeClass::Blitz
            })
        );
        assert_eq!(Pool::of_game(&Rules::new(Variant::I, 7).unwrap(), blitz), None);
        let mut spec = Rules::standard(Variant::II).spec();
        spec.seeds = 5;
        assert_eq!(Pool::of_game(&Rules::try_from(spec).unwrap(), blitz), None);
    }

    fn c(initial: u32, increment: u32, days: u32) -> Option<ClockSpec> {
        Some(ClockSpec {
            initial,
            increment,
            days,
        })
    }

    #[test]
    fn pools_by_name() {
        let p: Pool = "II-blitz".parse().unwrap();
        assert_eq!(
            p,
            Pool {
                variant: Variant::II,
                class: TimeClass::Blitz
            }
        );
        assert_eq!(Pool::all().count(), 18);
        for p in Pool::all() {
            assert_eq!(p.to_string().parse::<Pool>(), Ok(p));
        }
        let e = "IV-blitz".parse::<Pool>().unwrap_err();
        assert!(e.to_string().contains("unknown rating pool \"IV-blitz\""));
        assert!("ii-blitz".parse::<Pool>().is_err());
    }
}
