use std::sync::Arc;
use hoyito_core::{Rules, Variant};
use hoyito_tablebase::compact::*;
use hoyito_tablebase::Indexer;
fn main() {
    let dir = std::env::args().nth(1).unwrap();
    let rules = Rules::new(Variant::II, 4).unwrap();
    let ix = Indexer::new(8, 32);
    let l = CompactLayer::open(std::path::Path::new(&dir), &rules, 32, ix.count(), Arc::new(BlockCache::new(0))).unwrap();
    let mut out = vec![0i8; 4096];
    let t = std::time::Instant::now();
    let blocks = 2000;
    for b in 0..blocks { l.decode(b * 7 % 3700, &mut out); }
    let el = t.elapsed().as_nanos() as f64;
    println!("{:.1} ns/position, {:.1} us/block", el / (blocks as f64 * 4096.0), el / blocks as f64 / 1000.0);
    let mut board = vec![0u8; 8];
    ix.unrank(0, &mut board);
    let t = std::time::Instant::now();
    let mut acc = 0usize;
    for _ in 0..4096*2000 { acc += board.iter().map(|&x| x as usize).sum::<usize>(); ix.next(&mut board); if board[0]==32 {ix.unrank(0,&mut board);} }
    println!("next+sum {:.1} ns/position {acc}", t.elapsed().as_nanos() as f64 / (4096.0*2000.0));
}
