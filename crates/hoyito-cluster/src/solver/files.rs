//! The layer files: the lower layers read memory-mapped, each worker's
//! part file, and worker 0's merge of the parts into the layer file.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use hoyito_tablebase::file::{self, LayerFile};
use hoyito_tablebase::solve::LowerValues;

use super::job::BuildJob;
use crate::error::ClusterError;

/// The lower layers, memory-mapped from their files.
pub(super) struct Lower {
    pub(super) layers: Vec<Option<LayerFile>>,
}

impl LowerValues for Lower {
    #[inline]
    fn value(&self, seeds: u32, rank: u64) -> i8 {
        self.layers[seeds as usize]
            .as_ref()
            .expect("lower layers are built first")
            .value(rank)
    }
}

/// The first rank of worker `w`'s part of a layer of `count` positions.
pub fn part_start(count: u64, w: usize, workers: usize) -> u64 {
    (count as u128 * w as u128 / workers as u128) as u64
}

/// The name of worker `w`'s part file of layer `seeds` (of `workers` parts).
pub fn part_file_name(seeds: u32, w: usize, workers: usize) -> String {
    format!("seeds-{seeds:03}.part-{w:04}-of-{workers:04}")
}

pub(super) fn io_at(path: &Path) -> impl Fn(std::io::Error) -> ClusterError + '_ {
    move |source| ClusterError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Joins the part files into the layer file (atomically) and removes them.
pub(super) fn merge(
    job: &BuildJob,
    seeds: u32,
    count: u64,
    bounds: &[u64],
    part_path: &dyn Fn(usize) -> PathBuf,
) -> Result<(), ClusterError> {
    let sub = file::rules_dir(&job.dir, &job.rules);
    let path = sub.join(file::layer_file_name(seeds));
    let parts = bounds.len() - 1;
    for w in 0..parts {
        let p = part_path(w);
        let len = std::fs::metadata(&p).map_err(io_at(&p))?.len();
        if len != bounds[w + 1] - bounds[w] {
            return Err(ClusterError::Io {
                path: p,
                source: std::io::Error::other(format!("{len} bytes, expected {}", bounds[w + 1] - bounds[w])),
            });
        }
    }
    let mut current: Option<(usize, BufReader<File>)> = None;
    let mut next_part = 0usize;
    let mut buf = Vec::new();
    file::write_layer_try_with(&path, &job.rules, seeds, count, |_, block| {
        let mut filled = 0;
        while filled < block.len() {
            if current.is_none() {
                let f = File::open(part_path(next_part))?;
                current = Some((next_part, BufReader::with_capacity(1 << 20, f)));
                next_part += 1;
            }
            let (_, r) = current.as_mut().expect("opened above");
            buf.resize(block.len() - filled, 0);
            let got = r.read(&mut buf)?;
            if got == 0 {
                current = None;
                if next_part >= parts {
                    return Err(std::io::Error::other("the parts end before the layer"));
                }
                continue;
            }
            for (v, &b) in block[filled..filled + got].iter_mut().zip(&buf[..got]) {
                *v = b as i8;
            }
            filled += got;
        }
        Ok(())
    })?;
    for w in 0..parts {
        let p = part_path(w);
        std::fs::remove_file(&p).map_err(io_at(&p))?;
    }
    Ok(())
}
