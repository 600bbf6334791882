//! Reading a stored game back: its row and its steps, from one snapshot.

use hoyito_core::{ByPlayer, Rules, RulesSpec, Side};
use rusqlite::{params, OptionalExtension};

use super::{SqlResult, Sqlite};
use crate::store::{Meta, Mode, Offer, StoredGame};

impl Sqlite {
    /// Loads a game: its meta, undo count, stored steps in order and its
    /// draw offer.
    ///
    /// # Errors
    /// If SQLite fails or a stored row is corrupt.
    pub fn load(&self, id: &str) -> SqlResult<Option<StoredGame>> {
        let mut conn = self.reader();
        // One snapshot for the game and its steps.
        let tx = conn.transaction()?;
        let row = tx
            .query_row(
                "SELECT id, created_ms, mode, rules, is_match, level, engine_side, start,
                        south_token, north_token, invite, undos, south_name, north_name, clock, public,
                        draw_offer, draw_offer_seq, draw_rev, takeback_offer, takeback_offer_seq, rated,
                        rating_min, rating_max
                 FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, bool>(4)?,
                        r.get::<_, u8>(5)?,
                        r.get::<_, Option<String>>(6)?,
                        r.get::<_, Option<String>>(7)?,
                        r.get::<_, Option<String>>(8)?,
                        r.get::<_, Option<String>>(9)?,
                        r.get::<_, Option<String>>(10)?,
                        r.get::<_, u64>(11)?,
                        (
                            r.get::<_, Option<String>>(12)?,
                            r.get::<_, Option<String>>(13)?,
                            r.get::<_, Option<String>>(14)?,
                            r.get::<_, bool>(15)?,
                        ),
                        (
                            r.get::<_, Option<String>>(16)?,
                            r.get::<_, Option<u64>>(17)?,
                            r.get::<_, u64>(18)?,
                        ),
                        (r.get::<_, Option<String>>(19)?, r.get::<_, Option<u64>>(20)?),
                        r.get::<_, bool>(21)?,
                        r.get::<_, Option<i32>>(22)?.zip(r.get::<_, Option<i32>>(23)?),
                    ))
                },
            )
            .optional()?;
        let Some((
            id,
            created_ms,
            mode,
            rules,
            is_match,
            level,
            engine_side,
            start,
            south,
            north,
            invite,
            undos,
            (south_name, north_name, clock, public),
            (draw_side, draw_seq, draw_rev),
            (takeback_side, takeback_seq),
            rated,
            rating_range,
        )) = row
        else {
            return Ok(None);
        };
        let corrupt = |what: &str| {
            rusqlite::Error::FromSqlConversionFailure(
                0,
                rusqlite::types::Type::Text,
                format!("game {id}: bad {what}").into(),
            )
        };
        let mode = Mode::parse(&mode).ok_or_else(|| corrupt("mode"))?;
        let spec: RulesSpec = serde_json::from_str(&rules).map_err(|_| corrupt("rules"))?;
        let rules = Rules::try_from(spec).map_err(|_| corrupt("rules"))?;
        let engine_side = match engine_side {
            Some(s) => Some(s.parse::<Side>().map_err(|_| corrupt("engine side"))?),
            None => None,
        };
        let clock = match clock {
            Some(c) => Some(serde_json::from_str(&c).map_err(|_| corrupt("clock"))?),
            None => None,
        };
        let offer = |side: Option<String>, seq: Option<u64>, what: &str| -> SqlResult<Option<Offer>> {
            match (side, seq) {
                (Some(side), Some(seq)) => Ok(Some(Offer {
                    side: side.parse::<Side>().map_err(|_| corrupt(what))?,
                    seq,
                })),
                _ => Ok(None),
            }
        };
        let draw_offer = offer(draw_side, draw_seq, "draw offer")?;
        let takeback_offer = offer(takeback_side, takeback_seq, "takeback request")?;
        let steps = {
            let mut st = tx.prepare_cached("SELECT token FROM moves WHERE game_id = ?1 ORDER BY seq")?;
            let steps = st
                .query_map(params![id], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            steps
        };
        tx.commit()?;
        let meta = Meta {
            id,
            created_ms,
            mode,
            rules,
            is_match,
            level,
            engine_side,
            start,
            tokens: ByPlayer::new(south, north),
            invite,
            names: ByPlayer::new(south_name, north_name),
            clock,
            public,
            rated,
            rating_range: rating_range.map(|(a, b)| [a, b]),
        };
        Ok(Some(StoredGame {
            meta,
            undos,
            steps,
            draw_offer,
            takeback_offer,
            draw_rev,
        }))
    }
}
