//! Plays seeded uniformly random games (or matches) with the core and prints
//! every step as one JSON line: the legal move tokens before the move, the
//! move played and the §7 state after it. Other implementations and the
//! Python bindings replay these lines to check they agree with the crate.
//!
//! ```text
//! cargo run -p hoyito-core --example random_trace -- '{"variant":"II","holes":6}' 7 3 [match]
//! ```
//!
//! Arguments: the rules as a `RulesSpec` JSON object, a random seed, the
//! number of games, and `match` to play matches (at most 6 rounds each).
//! Each game starts with a line `{"start": state, "rules": spec}`, and a new
//! round of a match with `{"round": k, "state": state}`.

use std::io::Write;
use std::process::ExitCode;

use hoyito_core::{Contest, Rules, RulesSpec, State};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: random_trace RULES_JSON SEED GAMES [match]");
        return ExitCode::from(2);
    }
    let rules = match serde_json::from_str::<RulesSpec>(&args[0])
        .map_err(|e| e.to_string())
        .and_then(|s| Rules::try_from(s).map_err(|e| e.to_string()))
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("bad rules: {e}");
            return ExitCode::from(2);
        }
    };
    let (Ok(seed), Ok(games)) = (args[1].parse::<u64>(), args[2].parse::<u32>()) else {
        eprintln!("SEED and GAMES must be whole numbers");
        return ExitCode::from(2);
    };
    let as_match = args.get(3).is_some_and(|a| a == "match");
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // A closed output (e.g. `| head`) ends the program quietly.
    macro_rules! line {
        ($v:expr) => {
            if writeln!(out, "{}", $v).is_err() {
                return ExitCode::SUCCESS;
            }
        };
    }
    for _ in 0..games {
        let mut c = if as_match {
            Contest::new_match(rules)
        } else {
            Contest::new_game(rules)
        };
        line!(json!({"start": State::from_position(c.position()), "rules": RulesSpec::from(rules)}));
        loop {
            if c.position().is_over() {
                let rounds = c.rounds().len();
                if rounds < 6 && c.start_next_round() {
                    line!(json!({"round": rounds + 1, "state": State::from_position(c.position())}));
                    continue;
                }
                break;
            }
            let legal = c.position().legal_tokens();
            let token = legal[rng.random_range(0..legal.len())].clone();
            if let Err(e) = c.play_token(&token) {
                eprintln!("a legal move failed: {e}");
                return ExitCode::FAILURE;
            }
            line!(json!({"legal": legal, "move": token, "state": State::from_position(c.position())}));
        }
    }
    if out.flush().is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
