//! Rating a rated game once it ends ([`AppState::rate_if_over`]): the
//! game's pool ([`crate::ratings::Pool::of_game`]), its two accounts (the
//! seats' links, `account_seats`) and south's score give the stored
//! [`RatedResult`]; the store rates a game once, whichever node asks and
//! however often, and answers the changes it stored.
//!
//! Not rated: a game stopped before each side had moved (an abort, or a
//! resignation, flag or claim before then), and a game whose seats are not
//! held by two different accounts.

use hoyito_core::Side;

use crate::ratings::{Pool, Score};
use crate::room::live::LiveGame;
use crate::state::AppState;
use crate::store::RatedResult;

/// South's score in a game whose result is `result` (`south`, `north` or
/// `draw`); `None` for any other (an aborted game).
fn south_score(result: &str) -> Option<Score> {
    match result {
        "south" => Some(Score::Win),
        "north" => Some(Score::Loss),
        "draw" => Some(Score::Draw),
        _ => None,
    }
}

/// What of `g` is rated, if it is a rated game that ended and counts:
/// its pool's name and south's score.
fn ratable(g: &LiveGame) -> Option<(String, Score)> {
    if !g.meta.rated || g.meta.is_match || !g.room.both_moved() {
        return None;
    }
    let summary = g.room.summary();
    let score = south_score(summary.result?)?;
    let pool = Pool::of_game(&g.meta.rules, g.meta.clock)?;
    Some((pool.to_string(), score))
}

impl AppState {
    /// Rates `g` if it is a rated game that has ended and counts, and keeps
    /// the rating changes in it for its view. Called after each stored step
    /// and when a game is loaded (a game already rated is read back, not
    /// rated again). A failure is logged: the game stays unrated until it is
    /// loaded again.
    pub(crate) async fn rate_if_over(&self, g: &mut LiveGame) {
        if g.rating.is_some() {
            return;
        }
        let Some((pool, score)) = ratable(g) else { return };
        let game = g.meta.id.clone();
        let ended_ms = g
            .times
            .iter()
            .rev()
            .flatten()
            .next()
            .copied()
            .unwrap_or(g.meta.created_ms);
        let rated = self
            .db(move |s| {
                let seats = s.accounts().seat_accounts(&game)?;
                let of = |side: Side| {
                    seats
                        .iter()
                        .find(|(seat, _)| seat == side.name())
                        .map(|(_, account)| account.clone())
                };
                let (Some(south), Some(north)) = (of(Side::South), of(Side::North)) else {
                    return Ok(None);
                };
                if south == north {
                    return Ok(None);
                }
                let result = RatedResult {
                    game,
                    pool,
                    south,
                    north,
                    south_score: score,
                    ended_ms,
                };
                s.ratings().rate_game(&result).map(|(changes, _)| Some(changes))
            })
            .await;
        match rated {
            Ok(Some(changes)) => g.rating = Some(changes),
            Ok(None) => {
                tracing::warn!(game = %g.meta.id, "a rated game ended without two accounts in its seats: not rated")
            }
            Err(e) => {
                tracing::warn!(game = %g.meta.id, error = %e.message, "the rated game could not be rated now")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_win_a_loss_or_a_draw_is_scored() {
        assert_eq!(south_score("south"), Some(Score::Win));
        assert_eq!(south_score("north"), Some(Score::Loss));
        assert_eq!(south_score("draw"), Some(Score::Draw));
        assert_eq!(south_score("aborted"), None);
    }

    /// A rated game of variant II without a clock, after `steps`.
    fn rated_after(steps: &[&str]) -> LiveGame {
        use hoyito_core::{ByPlayer, Rules, Variant};
        let meta = crate::store::Meta {
            id: "g".into(),
            created_ms: 1,
            mode: crate::store::Mode::Online,
            rules: Rules::standard(Variant::II),
            is_match: false,
            level: 3,
            engine_side: None,
            start: None,
            tokens: ByPlayer::new(Some("s".into()), Some("n".into())),
            invite: None,
            names: ByPlayer::new(None, None),
            clock: None,
            public: false,
            rated: true,
            rating_range: None,
        };
        let steps: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
        LiveGame::replay(meta, 0, &steps).unwrap()
    }

    #[test]
    fn a_claim_after_both_moved_is_rated_and_before_is_not() {
        // The first legal moves of the standard start until each side has
        // moved, and those moves but the last (North's first).
        let mut moves: Vec<String> = Vec::new();
        while !rated_after(&moves.iter().map(String::as_str).collect::<Vec<_>>())
            .room
            .both_moved()
        {
            let g = rated_after(&moves.iter().map(String::as_str).collect::<Vec<_>>());
            moves.push(g.room.legal_tokens()[0].clone());
        }
        let with = |last: &[&str]| {
            let mut steps: Vec<&str> = moves.iter().map(String::as_str).collect();
            steps.extend_from_slice(last);
            rated_after(&steps)
        };
        let before: Vec<&str> = moves[..moves.len() - 1].iter().map(String::as_str).collect();
        // North left and South claimed the win; North left and South called a draw.
        assert_eq!(
            ratable(&with(&["left:north"])),
            Some(("II-untimed".into(), Score::Win))
        );
        assert_eq!(
            ratable(&with(&["left-draw:north"])),
            Some(("II-untimed".into(), Score::Draw))
        );
        assert_eq!(
            ratable(&with(&["left:south"])),
            Some(("II-untimed".into(), Score::Loss))
        );
        // Before North moved: not rated; a game that goes on: not yet.
        let mut early = before.clone();
        early.push("left:north");
        assert_eq!(ratable(&rated_after(&early)), None);
        assert_eq!(ratable(&with(&[])), None, "not over");
    }
}
