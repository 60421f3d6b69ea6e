//! The `adt-ls-native` command line (docs/cli.md): scripts and CI pipelines run ABAP checks
//! through adt-ls and get the reports CI systems read. [`run`] parses the arguments (clap,
//! [`args`]), refuses secrets on the command line, hands `doctor` to [`crate::doctor`]
//! unchanged, and runs every other command in one adt-ls session: objects resolved, the
//! command's calls made (`--jobs` at a time, cancelled on the wire by Ctrl-C), adt-ls
//! disposed, the report written to stdout or `--output`, progress and messages on stderr,
//! and the exit status returned (0, 1, 2, 3, 130: [`exit`]).

mod args;
mod atc_model;
mod commands;
mod config;
mod coverage_model;
mod exit;
mod interrupt;
mod objects;
mod output;
mod paths;
mod progress;
mod report;
mod secrets;
mod session;
mod unit_model;
mod usage;

use crate::doctor::{self, RuntimeInfo};
use crate::kernel::host::HostEnv;
use args::{Cli, Command, Common, Format, Objects, TransportAction};
use clap::{CommandFactory, Parser};
use commands::{Outcome, Run};
use exit::Failure;
use interrupt::Interrupts;
use progress::{Mode, Progress};
use std::future::Future;
use std::io::{IsTerminal, Write};
use std::time::Duration;

/// Run the command line `argv` (after `node <script>`); prints and returns the exit status.
pub(crate) async fn run(argv: Vec<String>, host: HostEnv, runtime: RuntimeInfo) -> i32 {
    if let Some(refused) = secrets::refuse_on_command_line(&argv) {
        return fail(&refused);
    }
    let words = std::iter::once("adt-ls-native".to_string()).chain(argv.iter().cloned());
    let cli = match Cli::try_parse_from(words) {
        Ok(cli) => cli,
        Err(e) => {
            return match usage::from_clap(e, &usage_of(&argv)) {
                usage::Early::Print(text) => print(&mut std::io::stdout(), &text, 0),
                usage::Early::Usage(text) => print(&mut std::io::stderr(), &text, 2),
            }
        }
    };
    let Some(command) = cli.command else {
        let help = Cli::command().render_long_help().to_string();
        return print(
            &mut std::io::stderr(),
            &usage::usage_error("missing command", &help),
            2,
        );
    };
    if let Command::Doctor(d) = command {
        if d.help {
            return print(&mut std::io::stdout(), doctor::args::USAGE, 0);
        }
        let (code, report) = doctor::report_text(&d.into(), &host, &runtime).await;
        return print(&mut std::io::stdout(), &report, code);
    }
    match execute(command, host).await {
        Ok(code) => code,
        Err(failure) => fail(&failure),
    }
}

/// The usage of the command `argv` names (its first word), else the top-level usage.
fn usage_of(argv: &[String]) -> String {
    let mut cli = Cli::command();
    let word = argv.first().map(String::as_str).unwrap_or("");
    match cli.find_subcommand_mut(word) {
        Some(sub) => sub.render_usage().to_string(),
        None => cli.render_usage().to_string(),
    }
}

fn print(out: &mut dyn Write, text: &str, code: i32) -> i32 {
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
    code
}

/// `adt-ls-native: <message>` on stderr; the failure's status.
fn fail(failure: &Failure) -> i32 {
    let text = format!("adt-ls-native: {}\n", failure.message);
    print(&mut std::io::stderr(), &text, failure.status as i32)
}

/// What a command needs before it runs.
struct Plan<'a> {
    name: &'static str,
    common: &'a Common,
    needs_system: bool,
    formats: &'static [Format],
    content_is_text: bool,
    objects: Option<&'a Objects>,
}

/// The plan of a session command (`None` for `doctor`, which runs without a session).
fn plan(command: &Command) -> Option<Plan<'_>> {
    let p = |name, common, needs_system, formats, objects| Plan {
        name,
        common,
        needs_system,
        formats,
        content_is_text: false,
        objects,
    };
    Some(match command {
        Command::Search(a) => p("search", &a.common, true, &[], None),
        Command::Read(a) => Plan {
            content_is_text: true,
            ..p("read", &a.common, true, &[], Some(&a.objects))
        },
        Command::Write(a) => p("write", &a.common, true, &[], Some(&a.objects)),
        Command::Activate(a) => p("activate", &a.common, true, &[], Some(&a.objects)),
        Command::Unit(a) => p("unit", &a.common, true, &[Format::Junit], Some(&a.objects)),
        Command::Coverage(a) => p(
            "coverage",
            &a.common,
            true,
            &[Format::Cobertura, Format::Lcov],
            Some(&a.objects),
        ),
        Command::Atc(a) => p(
            "atc",
            &a.common,
            true,
            &[Format::Sarif, Format::Checkstyle],
            Some(&a.objects),
        ),
        Command::Transport(t) => match &t.action {
            TransportAction::List(a) => p("transport list", &a.common, true, &[], None),
            TransportAction::Check(a) => {
                p("transport check", &a.common, true, &[], Some(&a.objects))
            }
            TransportAction::Diff(a) => Plan {
                content_is_text: true,
                ..p("transport diff", &a.common, true, &[], None)
            },
        },
        Command::Tools(a) => p("tools", &a.common, false, &[], None),
        Command::Call(a) => p("call", &a.common, false, &[], None),
        Command::Destinations(a) => p("destinations", &a.common, false, &[], None),
        Command::Doctor(_) => return None,
    })
}

/// Run a session command: everything checked first, then adt-ls started, the work done and
/// adt-ls disposed whatever happened.
async fn execute(command: Command, host: HostEnv) -> Result<i32, Failure> {
    let plan = plan(&command).ok_or_else(|| Failure::usage("doctor runs without a session"))?;
    let common = plan.common;
    let format = output::format(
        &common.out,
        plan.name,
        plan.formats,
        std::io::stdout().is_terminal(),
        plan.content_is_text,
    )?;
    let wanted = plan.objects.map(objects::wanted).transpose()?;
    let opts = session::options(common, &host, plan.name, plan.needs_system)?;
    let mode = if common.out.quiet {
        Mode::Quiet
    } else if std::io::stderr().is_terminal() {
        Mode::Live
    } else {
        Mode::Lines
    };
    let progress = Progress::new(mode, Box::new(std::io::stderr()));
    let mut interrupts = Interrupts::listen();
    let client = interruptible(&mut interrupts, session::open(opts)).await??;
    let run = Run {
        client: client.clone(),
        progress: progress.clone(),
        paths: paths::PathScheme::new(common.out.path_prefix.as_deref()),
        format,
        jobs: usize::from(common.out.jobs),
        timeout: common.out.timeout_ms.map(Duration::from_millis),
    };
    let work = crate::kernel::cancel_scope::cancellable(async {
        let objects = match wanted {
            Some(w) => objects::resolve(&run.client, w).await?,
            None => Vec::new(),
        };
        dispatch(&command, &run, &objects).await
    });
    let result = interruptible(&mut interrupts, work).await;
    progress.clear();
    if matches!(&result, Err(f) if f.status == exit::Status::Interrupted) {
        let_cancellations_through(&client).await;
    }
    client.dispose().await;
    let outcome = result??;
    output::write(&outcome.report, common.out.output.as_deref())?;
    if let Some(summary) = &outcome.summary {
        progress.message(&format!("adt-ls-native: {summary}"));
    }
    Ok(outcome.status as i32)
}

/// An LSP method no server has: its (error) answer is the barrier below.
const BARRIER_METHOD: &str = "adt-ls-native/cancellationBarrier";

/// After a Ctrl-C, before adt-ls is stopped: let it read the cancellations just sent. adt-ls
/// reads its messages in order, so the answer to a request sent after them (a method it does
/// not have: `MethodNotFound`) means it has read them. At most two seconds.
async fn let_cancellations_through(client: &crate::client::Client) {
    let probe = client.call("raw.lsp", vec![Some(serde_json::json!(BARRIER_METHOD))]);
    let _ = tokio::time::timeout(Duration::from_secs(2), probe).await;
}

/// `work`, or the interrupted failure at the first Ctrl-C (dropping `work`, which cancels its
/// calls on the wire).
async fn interruptible<T>(
    interrupts: &mut Option<Interrupts>,
    work: impl Future<Output = T>,
) -> Result<T, Failure> {
    match interrupts {
        Some(i) => tokio::select! {
            out = work => Ok(out),
            () = i.wait() => Err(Failure::interrupted()),
        },
        None => Ok(work.await),
    }
}

async fn dispatch(
    command: &Command,
    run: &Run,
    objects: &[objects::Obj],
) -> Result<Outcome, Failure> {
    match command {
        Command::Search(a) => commands::search::run(run, a).await,
        Command::Read(a) => commands::source::read(run, a, objects).await,
        Command::Write(a) => commands::source::write(run, a, objects).await,
        Command::Activate(_) => commands::activate::run(run, objects).await,
        Command::Unit(_) => commands::unit::unit(run, objects).await,
        Command::Coverage(_) => commands::unit::coverage(run, objects).await,
        Command::Atc(a) => commands::atc::run(run, a, objects).await,
        Command::Transport(t) => match &t.action {
            TransportAction::List(a) => commands::transport::list(run, a).await,
            TransportAction::Check(_) => commands::transport::check(run, objects).await,
            TransportAction::Diff(a) => commands::transport::diff(run, a).await,
        },
        Command::Tools(_) => commands::tools::tools(run).await,
        Command::Call(a) => commands::tools::call(run, &a.tool, &a.args).await,
        Command::Destinations(_) => commands::tools::destinations(run).await,
        Command::Doctor(_) => Err(Failure::usage("doctor runs without a session")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn status(argv: &[&str]) -> i32 {
        let host = HostEnv {
            vars: Some(Vec::new()),
            cwd: Some(std::env::temp_dir().join("adt-ls-native-cli-no-config")),
            ..HostEnv::default()
        };
        let argv = argv.iter().map(|s| s.to_string()).collect();
        run(argv, host, RuntimeInfo::default()).await
    }

    #[tokio::test]
    async fn usage_errors_exit_2_before_anything_starts() {
        assert_eq!(status(&["--help"]).await, 0);
        assert_eq!(status(&["--version"]).await, 0);
        assert_eq!(status(&["help"]).await, 0);
        assert_eq!(status(&["help", "atc"]).await, 0);
        assert_eq!(status(&[]).await, 2);
        assert_eq!(status(&["fix"]).await, 2);
        assert_eq!(status(&["atc", "ZCL_X", "--password", "pw"]).await, 2);
        assert_eq!(status(&["atc", "ZCL_X", "--format", "junit"]).await, 2);
        assert_eq!(status(&["atc", "ZCL_X:NOPE"]).await, 2);
        assert_eq!(status(&["search", "ZCL_*"]).await, 2, "needs a system");
        assert_eq!(
            status(&["unit", "ZCL_X", "--url", "https://u:p@h"]).await,
            2
        );
        assert_eq!(
            status(&["unit", "ZCL_X", "--url", "https://h:1"]).await,
            2,
            "no credentials"
        );
        assert_eq!(status(&["call", "t", "--jobs", "0"]).await, 2);
        assert_eq!(status(&["doctor", "--nope"]).await, 2);
    }

    #[test]
    fn every_command_has_a_plan_but_doctor() {
        let parse = |list: &[&str]| {
            let words = std::iter::once("adt-ls-native").chain(list.iter().copied());
            Cli::try_parse_from(words).unwrap().command.unwrap()
        };
        for (list, name) in [
            (&["search", "Z*"][..], "search"),
            (&["read", "X:CLAS"], "read"),
            (&["write", "X", "--file", "-"], "write"),
            (&["activate", "X"], "activate"),
            (&["unit", "X"], "unit"),
            (&["coverage", "X"], "coverage"),
            (&["atc", "X", "--fail-on", "warning"], "atc"),
            (&["transport", "list"], "transport list"),
            (&["transport", "check", "X"], "transport check"),
            (&["transport", "diff", "A4HK900101"], "transport diff"),
            (&["tools"], "tools"),
            (&["call", "abap_list_destinations", "--args", "{}"], "call"),
            (&["destinations"], "destinations"),
        ] {
            let command = parse(list);
            assert_eq!(plan(&command).map(|p| p.name), Some(name), "{list:?}");
        }
        assert!(plan(&parse(&["doctor", "--json"])).is_none());
    }

    #[test]
    fn doctor_options_parse_into_its_arguments() {
        let doctor = |list: &[&str]| {
            let words = ["adt-ls-native", "doctor"]
                .into_iter()
                .chain(list.iter().copied());
            match Cli::try_parse_from(words).map(|c| c.command) {
                Ok(Some(Command::Doctor(d))) => Ok(doctor::args::DoctorArgs::from(d)),
                Ok(other) => panic!("{other:?}"),
                Err(e) => match usage::from_clap(e, &usage_of(&["doctor".to_string()])) {
                    usage::Early::Usage(text) => Err(text),
                    usage::Early::Print(text) => panic!("{text}"),
                },
            }
        };
        assert_eq!(doctor(&[]).unwrap(), doctor::args::DoctorArgs::default());
        let d = doctor(&[
            "--json",
            "--url",
            "https://h:1/",
            "--self-signed",
            "--extra-ca",
            "a.pem",
            "--extra-ca=b.pem",
            "--proxy",
            "[::1]:3128",
            "--client",
            "100",
            "--timeout-ms=250",
            "--adt-ls-path",
            "/x/adt-ls",
            "--data-dir=/data",
        ])
        .unwrap();
        assert!(d.json && d.self_signed);
        assert_eq!(d.url.as_deref(), Some("https://h:1/"));
        assert_eq!(
            d.extra_ca,
            [std::path::PathBuf::from("a.pem"), "b.pem".into()]
        );
        assert_eq!(d.proxy, Some(("::1".to_string(), 3128)));
        assert_eq!(d.client.as_deref(), Some("100"));
        assert_eq!(d.timeout, Duration::from_millis(250));
        assert_eq!(d.adt_ls_path.as_deref(), Some("/x/adt-ls"));
        assert_eq!(d.data_dir, Some(std::path::PathBuf::from("/data")));
        for (list, fragment) in [
            (
                &["--url"][..],
                "a value is required for '--url <systemUrl>'",
            ),
            (&["--url", "ftp://h"], "must be an http(s) URL"),
            (&["--proxy", "host:0"], "must be host:port"),
            (&["--client", "1"], "three digits"),
            (&["--timeout-ms", "0"], "from 1 to 600000"),
            (&["--adt-ls-path="], "needs a file"),
            (&["--frobnicate"], "unexpected argument '--frobnicate'"),
        ] {
            let e = doctor(list).unwrap_err();
            assert!(e.contains(fragment), "{list:?}: {e}");
            assert!(e.contains("Usage: adt-ls-native doctor [options]"), "{e}");
        }
    }
}
