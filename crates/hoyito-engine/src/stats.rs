//! Statistics of a series of games between two players, as `hoyito
//! selfplay` reports them: the [`Tally`] of one player's wins, draws and
//! losses, its score with a 95 % [`wilson_interval`], and the Elo
//! difference the score implies ([`Tally::elo`]).
//!
//! ```
//! use hoyito_engine::stats::{Elo, Tally};
//!
//! let tally = Tally { wins: 6, draws: 2, losses: 2 };
//! assert_eq!(tally.score(), Some(0.7));
//! let Some(Elo::Estimate { elo, error }) = tally.elo() else { panic!() };
//! assert!(elo > 0.0 && error > 0.0);
//! ```

/// The normal quantile of a two-sided 95 % interval.
pub const Z95: f64 = 1.96;

/// One player's results over a series of games.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// The Elo difference a [`Tally`] implies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Elo {
    /// Some games were not won and some not lost: the estimate and the
    /// half-width of its 95 % interval.
    Estimate {
        /// The Elo difference, [`elo`] of the score.
        elo: f64,
        /// Half the width of its 95 % interval.
        error: f64,
    },
    /// Every game was won: no finite estimate, only a lower bound (the
    /// Elo of a score half a game below the maximum).
    AtLeast(f64),
    /// Every game was lost: an upper bound (the Elo of a score half a game
    /// above zero).
    AtMost(f64),
}

impl Tally {
    /// The number of games.
    pub const fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Counts one more game that scored `points`: 1 a win, ½ a draw, 0 a loss.
    ///
    /// # Panics
    /// If `points` is none of 1, ½ and 0.
    pub fn add(&mut self, points: f64) {
        match points {
            1.0 => self.wins += 1,
            0.5 => self.draws += 1,
            0.0 => self.losses += 1,
            _ => panic!("a game scores 1, 1/2 or 0 points, not {points}"),
        }
    }

    /// The points scored (a draw counting half) over the games played, in
    /// `0.0..=1.0`; `None` without games.
    pub fn score(self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n))
    }

    /// The Elo difference of the score, with the 95 % interval of the
    /// normal approximation: the score ± [`Z95`] standard errors (from the
    /// games' own variance, so draws narrow it), converted to Elo, the
    /// error being half the converted interval's width. Scores are clamped
    /// to half a game from 0 and 1, which have no finite Elo. `None`
    /// without games.
    pub fn elo(self) -> Option<Elo> {
        let p = self.score()?;
        let n = f64::from(self.games());
        let spread = |points: f64, games: u32| f64::from(games) * (points - p).powi(2);
        let var = (spread(1.0, self.wins) + spread(0.5, self.draws) + spread(0.0, self.losses)) / n;
        let half = Z95 * (var / n).sqrt();
        let eps = 0.5 / n;
        let clamp = |x: f64| x.clamp(eps, 1.0 - eps);
        let e = elo(clamp(p));
        Some(if self.wins == self.games() {
            Elo::AtLeast(e)
        } else if self.losses == self.games() {
            Elo::AtMost(e)
        } else {
            Elo::Estimate {
                elo: e,
                error: (elo(clamp(p + half)) - elo(clamp(p - half))) / 2.0,
            }
        })
    }
}

/// The Elo difference for a score fraction `p` in `(0, 1)`:
/// `−400 · log10(1/p − 1)`, the inverse of the logistic expected score
/// `1 / (1 + 10^(−elo/400))`. Infinite at 0 and 1.
pub fn elo(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

/// The 95 % Wilson score interval `(low, high)` of a proportion `p`
/// observed over `n` trials (for a series: the score fraction, draws
/// counting half, over the games), clipped to `0.0..=1.0`. Unlike the
/// normal approximation it stays inside `[0, 1]` and is not empty at a
/// score of 0 or 1.
pub fn wilson_interval(p: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(elo(0.5), 0.0);
        // 3 to 1: 400 · log10(3) = 190.849.
        assert!(close(elo(0.75), 190.849, 1e-3));
        assert!(close(elo(0.25), -190.849, 1e-3));
        // 10 to 1: 400 · log10(10) = 400.
        assert!(close(elo(10.0 / 11.0), 400.0, 1e-9));
    }

    #[test]
    fn wilson_of_known_proportions() {
        // p = 1/2, n = 100: centre 1/2; half-width
        // 1.96 / (1 + 1.96²/100) · sqrt(0.25/100 + 1.96²/40000)
        // = 1.887487 · 0.050951 = 0.096170.
        let (lo, hi) = wilson_interval(0.5, 100.0);
        assert!(
            close(lo, 0.403830, 1e-6) && close(hi, 0.596170, 1e-6),
            "{lo} {hi}"
        );
        // p = 1, n = 50: centre (1 + 1.96²/100) / (1 + 1.96²/50) = 0.964325,
        // half-width 1.96 / 1.076832 · sqrt(1.96²/10000) = 0.035675;
        // lower end 0.928650, upper end clipped to 1.
        let (lo, hi) = wilson_interval(1.0, 50.0);
        assert!(close(lo, 0.928650, 1e-6) && hi == 1.0, "{lo} {hi}");
    }

    #[test]
    fn tally_counts_and_scores() {
        let mut t = Tally::default();
        assert_eq!((t.score(), t.elo()), (None, None));
        for points in [1.0, 0.5, 0.5, 0.0, 1.0] {
            t.add(points);
        }
        assert_eq!(
            t,
            Tally {
                wins: 2,
                draws: 2,
                losses: 1
            }
        );
        assert_eq!(t.games(), 5);
        assert_eq!(t.score(), Some(0.6));
    }

    #[test]
    #[should_panic(expected = "1/2 or 0 points, not 0.25")]
    fn tally_refuses_other_points() {
        Tally::default().add(0.25);
    }

    #[test]
    fn elo_estimate_and_interval() {
        // +1 =2 -1: score 1/2, Elo 0. Variance (1/4 + 0 + 0 + 1/4) / 4 = 1/8,
        // so the score's interval is 1/2 ± 1.96 · sqrt(1/32) = 1/2 ± 0.346482,
        // and elo(0.846482) = 296.584 = −elo(0.153518).
        let even = Tally {
            wins: 1,
            draws: 2,
            losses: 1,
        };
        let Some(Elo::Estimate { elo, error }) = even.elo() else {
            panic!("{:?}", even.elo())
        };
        assert!(elo.abs() < 1e-9 && close(error, 296.584, 1e-3), "{elo} {error}");
        // +3 -1: score 3/4, Elo 190.849. Variance (3 · 1/16 + 9/16) / 4 = 3/16,
        // half-width 1.96 · sqrt(3/64) = 0.424352; the upper end 1.174 is
        // clamped to 7/8 (half a game from 1): (elo(7/8) − elo(0.325648)) / 2
        // = (338.039 + 126.455) / 2 = 232.247.
        let Some(Elo::Estimate { elo, error }) = (Tally {
            wins: 3,
            draws: 0,
            losses: 1,
        })
        .elo() else {
            panic!()
        };
        assert!(
            close(elo, 190.849, 1e-3) && close(error, 232.247, 1e-3),
            "{elo} {error}"
        );
    }

    #[test]
    fn all_won_or_all_lost_is_a_bound() {
        // 4 of 4: the score is clamped to 7/8, elo(7/8) = 400 · log10(7) = 338.039.
        let won = Tally {
            wins: 4,
            draws: 0,
            losses: 0,
        };
        assert!(matches!(won.elo(), Some(Elo::AtLeast(e)) if close(e, 338.039, 1e-3)));
        let lost = Tally {
            wins: 0,
            draws: 0,
            losses: 4,
        };
        assert!(matches!(lost.elo(), Some(Elo::AtMost(e)) if close(e, -338.039, 1e-3)));
    }
}
