//! The command line's argument model (clap derive): the commands, the connection options
//! every command shares, the output options and the object arguments. Values are checked
//! here only for their shape; what they mean together (config files, environment, formats per
//! command) is decided in [`super::config`] and the commands.

use crate::doctor::args::{self as doctor_args, DoctorArgs};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

/// `adt-ls-native <command> [arguments] [options]`.
#[derive(Debug, Parser)]
#[command(
    name = "adt-ls-native",
    version,
    override_usage = super::usage::USAGE_LINES,
    about = "ABAP checks and object work for scripts and CI, through SAP's adt-ls.",
    after_help = super::usage::AFTER_HELP,
    help_template = "{usage-heading} {usage}\n\n{about}\n\n{all-args}{after-help}",
    subcommand_required = false,
    arg_required_else_help = false
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Search repository objects by name pattern (`*` wildcards)
    Search(SearchArgs),
    /// Print objects' source (a class include with --include)
    Read(ReadArgs),
    /// Replace an object's source with a file or stdin (`--file -`)
    Write(WriteArgs),
    /// Activate objects; exit 1 when activation reports errors
    Activate(ObjectArgs),
    /// Run ABAP Unit; exit 1 when a test fails (--format junit)
    Unit(UnitArgs),
    /// Run ABAP Unit with coverage (--format cobertura or lcov)
    Coverage(UnitArgs),
    /// Run ATC checks; exit 1 on findings at or above --fail-on (--format sarif or checkstyle)
    Atc(AtcArgs),
    /// Transports: list, check <object>, diff <number>
    Transport(TransportArgs),
    /// List adt-ls's MCP tools with their input schemas
    Tools(PlainArgs),
    /// Call one MCP tool of adt-ls with JSON arguments
    Call(CallArgs),
    /// List the ABAP destinations adt-ls knows
    Destinations(PlainArgs),
    /// Explain what would happen on this machine (see `adt-ls-native doctor --help`)
    #[command(
        disable_help_flag = true,
        override_usage = "adt-ls-native doctor [options]"
    )]
    Doctor(DoctorCli),
}

/// How to reach the system, shared by every command (docs/cli.md#connection).
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct ConnectionArgs {
    /// The SAP system (env ADT_LS_URL); without it the run is in foundation mode
    #[arg(long, value_name = "systemUrl")]
    pub url: Option<String>,
    /// The SAP client, three digits (env ADT_LS_CLIENT)
    #[arg(long, value_name = "nnn")]
    pub client: Option<String>,
    /// The user to log on as (env ADT_LS_USER)
    #[arg(long, value_name = "name")]
    pub user: Option<String>,
    /// Read the password from the first line of stdin (else env ADT_LS_PASSWORD)
    #[arg(long)]
    pub password_stdin: bool,
    /// Front a self-signed system with the localhost TLS proxy
    #[arg(long)]
    pub self_signed: bool,
    /// A CA certificate file (PEM or DER) to trust; repeatable
    #[arg(long, value_name = "file")]
    pub extra_ca: Vec<PathBuf>,
    /// The adt-ls binary (else ADT_LS_PATH, vendor/adt-ls, the editor installs)
    #[arg(long, value_name = "file")]
    pub adt_ls_path: Option<String>,
    /// A JSON file with the same keys (default ./adt-ls.config.json when present)
    #[arg(long, value_name = "file")]
    pub config: Option<PathBuf>,
}

/// What to print and how long to wait, shared by every command (docs/cli.md#output).
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct OutputArgs {
    /// text (default on a TTY), json (default otherwise), or the command's report format
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Write the report to this file instead of stdout
    #[arg(long, value_name = "file")]
    pub output: Option<PathBuf>,
    /// Objects worked on in parallel within one adt-ls session (1-64)
    #[arg(long, value_name = "n", default_value_t = 4,
          value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: u16,
    /// Bound of every call to adt-ls, in milliseconds (1-3600000)
    #[arg(long, value_name = "ms",
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub timeout_ms: Option<u64>,
    /// Prefix of the file paths in reports (default src/)
    #[arg(long, value_name = "dir")]
    pub path_prefix: Option<String>,
    /// No progress on stderr (errors are still printed)
    #[arg(long, short)]
    pub quiet: bool,
}

/// Every output format; which ones a command accepts is checked by the command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    Text,
    Json,
    Junit,
    Cobertura,
    Lcov,
    Sarif,
    Checkstyle,
}

impl Format {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Junit => "junit",
            Format::Cobertura => "cobertura",
            Format::Lcov => "lcov",
            Format::Sarif => "sarif",
            Format::Checkstyle => "checkstyle",
        }
    }
}

/// The options every command has.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct Common {
    #[command(flatten)]
    pub conn: ConnectionArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Objects: `NAME:TYPE` arguments, or `NAME` with `--type`.
#[derive(Debug, Clone, Args)]
pub(crate) struct Objects {
    /// Objects as NAME:TYPE (e.g. ZCL_TEST:CLAS/OC), or NAME alone
    #[arg(value_name = "OBJECT", required = true)]
    pub names: Vec<String>,
    /// The ADT type of the names given without one (e.g. CLAS/OC, or CLAS)
    #[arg(long = "type", short = 't', value_name = "TYPE")]
    pub object_type: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct SearchArgs {
    /// The name pattern, e.g. ZCL_* or CL_ABAP_TYPEDESCR
    pub pattern: String,
    /// Only these ADT types (repeatable), e.g. CLAS/OC
    #[arg(long = "type", short = 't', value_name = "TYPE")]
    pub types: Vec<String>,
    /// At most this many hits (1-1000, default 50)
    #[arg(long, value_name = "n", value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub max: Option<u16>,
    #[command(flatten)]
    pub common: Common,
}

/// `--version` of `read`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SourceVersion {
    Active,
    Inactive,
}

#[derive(Debug, Args)]
pub(crate) struct ReadArgs {
    #[command(flatten)]
    pub objects: Objects,
    /// A class include: definitions, implementations, macros or testclasses
    #[arg(long, value_name = "name")]
    pub include: Option<String>,
    /// The active or the inactive (draft) version
    #[arg(long = "version", value_enum, value_name = "active|inactive")]
    pub version: Option<SourceVersion>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Args)]
pub(crate) struct WriteArgs {
    #[command(flatten)]
    pub objects: Objects,
    /// The new source: a file, or - for stdin
    #[arg(long, value_name = "F|-", required = true)]
    pub file: String,
    /// A class include: definitions, implementations, macros or testclasses
    #[arg(long, value_name = "name")]
    pub include: Option<String>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Args)]
pub(crate) struct ObjectArgs {
    #[command(flatten)]
    pub objects: Objects,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Args)]
pub(crate) struct UnitArgs {
    #[command(flatten)]
    pub objects: Objects,
    #[command(flatten)]
    pub common: Common,
}

/// `--fail-on` of `atc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub(crate) enum FailOn {
    #[default]
    Error,
    Warning,
    Info,
    Never,
}

#[derive(Debug, Args)]
pub(crate) struct AtcArgs {
    #[command(flatten)]
    pub objects: Objects,
    /// The ATC check variant (default: the system's)
    #[arg(long, value_name = "name")]
    pub variant: Option<String>,
    /// Exit 1 on findings of this priority or higher
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Args)]
pub(crate) struct TransportArgs {
    #[command(subcommand)]
    pub action: TransportAction,
}

#[derive(Debug, Subcommand)]
pub(crate) enum TransportAction {
    /// Your modifiable transports
    List(TransportListArgs),
    /// Whether a change of the object needs a transport, and which ones fit
    Check(ObjectArgs),
    /// The unified diff of a transport, all pages
    Diff(TransportDiffArgs),
}

#[derive(Debug, Args)]
pub(crate) struct TransportListArgs {
    /// Only transports matching this text
    #[arg(long, value_name = "text")]
    pub query: Option<String>,
    /// At most this many (1-1000)
    #[arg(long, value_name = "n", value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub limit: Option<u16>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Args)]
pub(crate) struct TransportDiffArgs {
    /// The transport request, e.g. A4HK900101
    pub number: String,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Args)]
pub(crate) struct PlainArgs {
    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Args)]
pub(crate) struct CallArgs {
    /// The MCP tool's name, e.g. abap_list_destinations
    pub tool: String,
    /// The tool's arguments as a JSON object
    #[arg(long, value_name = "json", default_value = "{}")]
    pub args: String,
    #[command(flatten)]
    pub common: Common,
}

/// `doctor`'s own options (docs/doctor.md), checked by `src/doctor/args.rs`; `--help` prints
/// its own usage text.
#[derive(Debug, Args)]
pub(crate) struct DoctorCli {
    /// Print the report as JSON
    #[arg(long)]
    pub json: bool,
    /// Probe the SAP system
    #[arg(long, value_name = "systemUrl", value_parser = doctor_args::parse_url)]
    pub url: Option<String>,
    /// As connection.selfSigned: true
    #[arg(long)]
    pub self_signed: bool,
    /// As connection.extraCaCerts (repeatable)
    #[arg(long, value_name = "file", value_parser = non_empty_path)]
    pub extra_ca: Vec<PathBuf>,
    /// As connection.forwardProxy
    #[arg(long, value_name = "host:port", value_parser = doctor_args::parse_host_port)]
    pub proxy: Option<(String, u16)>,
    /// The SAP client sent to the reentrance endpoint
    #[arg(long, value_name = "nnn", value_parser = doctor_args::parse_client)]
    pub client: Option<String>,
    /// Bound of every network step
    #[arg(long, value_name = "ms", value_parser = doctor_args::parse_timeout)]
    pub timeout_ms: Option<Duration>,
    /// As adtLs.path
    #[arg(long, value_name = "file", value_parser = non_empty)]
    pub adt_ls_path: Option<String>,
    /// Check this directory (a driver's dataDir) instead of the home directory
    #[arg(long, value_name = "dir", value_parser = non_empty_path)]
    pub data_dir: Option<PathBuf>,
    /// Show doctor's usage
    #[arg(long, short)]
    pub help: bool,
}

fn non_empty(raw: &str) -> Result<String, String> {
    if raw.is_empty() {
        Err("needs a file".into())
    } else {
        Ok(raw.to_string())
    }
}

fn non_empty_path(raw: &str) -> Result<PathBuf, String> {
    non_empty(raw).map(PathBuf::from)
}

impl From<DoctorCli> for DoctorArgs {
    fn from(d: DoctorCli) -> DoctorArgs {
        DoctorArgs {
            json: d.json,
            url: d.url,
            self_signed: d.self_signed,
            extra_ca: d.extra_ca,
            proxy: d.proxy,
            client: d.client,
            timeout: d.timeout_ms.unwrap_or(doctor_args::DEFAULT_TIMEOUT),
            adt_ls_path: d.adt_ls_path,
            data_dir: d.data_dir,
        }
    }
}
