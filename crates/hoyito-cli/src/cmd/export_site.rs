//! `hoyito export-site DIR`: the web app as static files, for any static
//! host (games against the computer and on one device run in the browser,
//! offline too; features that need the server say so).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};

#[derive(clap::Args)]
pub struct Args {
    /// Directory to write (created if missing; must be empty unless --force).
    dir: PathBuf,
    /// Write into a directory that is not empty, replacing files of the same name.
    #[arg(long)]
    force: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if a.dir.exists() {
        if !a.dir.is_dir() {
            bail!("{} is not a directory", a.dir.display());
        }
        let mut entries =
            std::fs::read_dir(&a.dir).with_context(|| format!("cannot read {}", a.dir.display()))?;
        if !a.force && entries.next().is_some() {
            bail!(
                "{} is not empty: choose an empty directory or pass --force",
                a.dir.display()
            );
        }
    }
    let n = hoyito_server::assets::export_site(&a.dir)
        .with_context(|| format!("cannot write the site to {}", a.dir.display()))?;
    outln!("wrote {n} files to {}", a.dir.display())?;
    Ok(ExitCode::SUCCESS)
}
