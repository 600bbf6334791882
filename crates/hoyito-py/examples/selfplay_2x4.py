"""A small agent trained by self-play on 2x4 Hoyito, in NumPy on the CPU,
then measured against the engine's levels and against the 2x4 tablebase.

    python crates/hoyito-py/examples/selfplay_2x4.py                 # a few minutes
    python crates/hoyito-py/examples/selfplay_2x4.py --iterations 5 --eval-games 10   # a quick look

Training: one policy (an MLP, 64 tanh units) plays both sides of
`--envs` games stepped together by `hoyito.VectorGame` (observations from
the player to move, so the policy always sees its own row first). After
each window of `--steps` steps, every move of a game that ended in the
window is reinforced by that game's result for its mover (REINFORCE,
+1 win, -1 loss, 0 draw, an entropy bonus), with Adam.

Evaluation (the agent plays its most likely legal move):

- against the engine at each of `--levels`, half the games as South;
- the share of its moves that keep the exact value of the position, read
  from the 2x4 tablebase (`hoyito.Tablebase.build`, a few seconds), over the
  positions of those games, beside the same share for a random mover.
"""

from __future__ import annotations

import argparse
import tempfile
import time

import numpy as np

import hoyito


class Policy:
    """obs -> masked softmax over actions, through one tanh layer."""

    def __init__(self, n_obs: int, n_actions: int, hidden: int, rng: np.random.Generator) -> None:
        self.p = {
            "w1": rng.normal(0, 1 / np.sqrt(n_obs), (n_obs, hidden)),
            "b1": np.zeros(hidden),
            "w2": rng.normal(0, 0.01, (hidden, n_actions)),
            "b2": np.zeros(n_actions),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = np.tanh(x @ self.p["w1"] + self.p["b1"])
        logits = h @ self.p["w2"] + self.p["b2"]
        logits = np.where(mask > 0, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits) * (mask > 0)
        return e / e.sum(axis=1, keepdims=True), h

    def update(self, x, mask, actions, advantage, lr: float, entropy: float) -> None:
        probs, h = self.forward(x, mask)
        n = len(x)
        onehot = np.zeros_like(probs)
        onehot[np.arange(n), actions] = 1.0
        # d(-A log p(a)) / d logits = A (p - onehot); the entropy bonus pushes towards uniform.
        logp = np.log(np.where(probs > 0, probs, 1.0))
        ent_grad = probs * (logp + (-(probs * logp).sum(axis=1, keepdims=True)))
        g_logits = (advantage[:, None] * (probs - onehot) + entropy * ent_grad) / n
        g_logits *= mask > 0
        grads = {"w2": h.T @ g_logits, "b2": g_logits.sum(axis=0)}
        g_h = (g_logits @ self.p["w2"].T) * (1 - h * h)
        grads["w1"] = x.T @ g_h
        grads["b1"] = g_h.sum(axis=0)
        self.t += 1
        for k, g in grads.items():  # Adam
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            self.p[k] -= lr * mh / (np.sqrt(vh) + 1e-8)

    def best_action(self, game: hoyito.Game, scale: float) -> int:
        probs, _ = self.forward(game.observation("mover")[None, :] / scale, game.action_mask()[None, :])
        return int(probs[0].argmax())


def train(args, rules: dict, rng: np.random.Generator) -> Policy:
    v = hoyito.VectorGame(args.envs, reward="win_loss", perspective="mover", **rules)
    scale = float(2 * rules["holes"] * rules["seeds"])
    policy = Policy(v.observation_size, v.num_actions, 64, rng)
    obs, mask = v.reset()
    began = time.perf_counter()
    for it in range(1, args.iterations + 1):
        xs, masks, acts, movers, epis = [], [], [], [], []
        episode = np.arange(args.envs)  # an id per game in the window
        next_id = args.envs
        outcome: dict[int, float] = {}
        for _ in range(args.steps):
            probs, _ = policy.forward(obs / scale, mask)
            # Sample an action per game from its probabilities.
            a = (probs.cumsum(axis=1) > rng.random((args.envs, 1))).argmax(axis=1)
            xs.append(obs / scale)
            masks.append(mask)
            acts.append(a)
            movers.append(obs[:, -1].astype(np.int8))
            epis.append(episode.copy())
            obs, _, done, mask = v.step(a)
            results = v.results()
            finals = v.final_observations()
            for i in np.flatnonzero(done):
                # South's final margin in seeds (a finished game is seen as South sees it).
                margin = (finals[i, -3] - finals[i, -2]) / scale
                z = float(results[i]) if args.target == "result" else float(results[i]) + 2 * margin
                outcome[int(episode[i])] = z
                episode[i] = next_id
                next_id += 1
        x = np.concatenate(xs)
        m = np.concatenate(masks)
        act = np.concatenate(acts)
        mover = np.concatenate(movers)
        ep = np.concatenate(epis)
        z = np.array([outcome.get(int(e), np.nan) for e in ep])
        finished = ~np.isnan(z)
        # The result for the mover: results are South-positive.
        adv = np.where(mover == 0, z, -z).astype(np.float64)
        policy.update(x[finished], m[finished], act[finished], adv[finished], args.lr, args.entropy)
        if it % max(1, args.iterations // 10) == 0 or it == args.iterations:
            print(f"iteration {it}/{args.iterations}: {len(outcome)} games, "
                  f"{time.perf_counter() - began:.0f} s", flush=True)
    return policy


def evaluate(args, rules: dict, policy: Policy, rng: np.random.Generator) -> dict:
    scale = float(2 * rules["holes"] * rules["seeds"])
    out: dict = {"levels": {}}
    with tempfile.TemporaryDirectory() as d:
        t = time.perf_counter()
        tb = hoyito.Tablebase.build(d, 2 * rules["holes"] * rules["seeds"], **rules)
        out["tablebase_seconds"] = round(time.perf_counter() - t, 1)
        optimal = random_optimal = moves = 0
        for level in args.levels:
            tally = {"win": 0, "draw": 0, "loss": 0}
            for k in range(args.eval_games):
                g = hoyito.Game(**rules)
                agent = "south" if k % 2 == 0 else "north"
                while not g.is_over():
                    if g.to_move() == agent:
                        probe = tb.probe(g)
                        a = policy.best_action(g, scale)
                        token = g.action_to_move(a)
                        optimal += token in probe["best"]
                        random_optimal += sum(t in probe["best"] for t in g.legal_moves()) / len(g.legal_moves())
                        moves += 1
                        g.play(token)
                    else:
                        g.play(g.best_move(level=level, seed=int(rng.integers(2**63))))
                w = g.winner()
                tally["draw" if w == "draw" else "win" if w == agent else "loss"] += 1
            out["levels"][level] = tally
            print(f"against level {level}: {tally}", flush=True)
        out["optimal_share"] = round(optimal / moves, 3)
        out["random_optimal_share"] = round(random_optimal / moves, 3)
        out["moves_probed"] = moves
    print(f"moves that keep the exact value: agent {out['optimal_share']:.1%}, "
          f"a random mover {out['random_optimal_share']:.1%} ({moves} positions)")
    return out


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="II")
    p.add_argument("--iterations", type=int, default=1500)
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--steps", type=int, default=64, help="steps per training window")
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--target", choices=["result", "margin"], default="result",
                   help="what reinforces a move: the result (+1/-1/0), or the result plus twice the final margin over the seeds")
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3])
    p.add_argument("--eval-games", type=int, default=100, help="games per level")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    rules = hoyito.rules_dict(variant=args.variant, holes=4)
    rng = np.random.default_rng(args.seed)
    t = time.perf_counter()
    policy = train(args, rules, rng)
    print(f"trained in {time.perf_counter() - t:.0f} s")
    return evaluate(args, rules, policy, rng)


if __name__ == "__main__":
    main()
