//! The probe's one HTTP/1.1 exchange, over whatever stream the earlier steps built: the
//! credential-free `GET` of the reentrance-ticket endpoint. Only the status line matters;
//! reads are bounded in size.

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Most bytes read while looking for the end of a response head.
const MAX_HEAD: usize = 16 * 1024;

/// The reentrance path with no credentials: `redirect-url` and `sap-client` as start-up
/// sends them.
pub(crate) fn reentrance_path(client: &str) -> String {
    format!(
        "/sap/bc/adt/core/http/reentranceticket?redirect-url={}&sap-client={client}",
        "http%3A%2F%2Flocalhost%2Fadt-ls-native-doctor"
    )
}

/// `GET target` (a path, or an absolute URL for a forward proxy) with `Host: authority`
/// and no credentials; the status code.
pub(crate) async fn get<S>(io: &mut S, authority: &str, target: &str) -> Result<u16, String>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let request = format!(
        "GET {target} HTTP/1.1\r\nHost: {authority}\r\nUser-Agent: adt-ls-native-doctor\r\nAccept: */*\r\nConnection: close\r\n\r\n"
    );
    io.write_all(request.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    io.flush().await.map_err(|e| e.to_string())?;
    read_status(io).await
}

/// Read up to the end of the response head (byte by byte, so nothing past it is consumed) and parse the status code.
async fn read_status<S: AsyncRead + Unpin>(io: &mut S) -> Result<u16, String> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if head.len() >= MAX_HEAD {
            return Err("response head too large".into());
        }
        match io.read(&mut byte).await {
            Ok(0) if head.is_empty() => {
                return Err("the connection closed without an answer".into())
            }
            Ok(0) => break,
            Ok(_) => head.push(byte[0]),
            Err(e) => return Err(e.to_string()),
        }
    }
    parse_status_line(&String::from_utf8_lossy(&head))
}

/// The code of `HTTP/1.x NNN reason`.
pub(crate) fn parse_status_line(head: &str) -> Result<u16, String> {
    let line = head.lines().next().unwrap_or_default();
    let mut parts = line.split_whitespace();
    match (
        parts.next(),
        parts.next().and_then(|c| c.parse::<u16>().ok()),
    ) {
        (Some(v), Some(code)) if v.starts_with("HTTP/") => Ok(code),
        _ => Err(format!(
            "not an HTTP answer: {:?}",
            line.chars().take(60).collect::<String>()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines() {
        assert_eq!(
            parse_status_line("HTTP/1.1 401 Unauthorized\r\nA: b\r\n\r\n"),
            Ok(401)
        );
        assert_eq!(
            parse_status_line("HTTP/1.0 307 Temporary Redirect\r\n\r\n"),
            Ok(307)
        );
        assert!(parse_status_line("\u{16}\u{3}\u{1}garbage").is_err());
        assert!(parse_status_line("").is_err());
    }

    #[tokio::test]
    async fn get_reads_only_the_head() {
        let (mut client, mut server) = tokio::io::duplex(4096);
        let server_task = tokio::spawn(async move {
            let mut buf = vec![0u8; 1024];
            let n = server.read(&mut buf).await.unwrap();
            let request = String::from_utf8_lossy(&buf[..n]).to_string();
            server
                .write_all(b"HTTP/1.1 401 Unauthorized\r\nContent-Length: 2\r\n\r\nno")
                .await
                .unwrap();
            request
        });
        let code = get(&mut client, "h:1", &reentrance_path("100"))
            .await
            .unwrap();
        assert_eq!(code, 401);
        let request = server_task.await.unwrap();
        assert!(request.starts_with("GET /sap/bc/adt/core/http/reentranceticket?redirect-url="));
        assert!(request.contains("&sap-client=100 HTTP/1.1\r\nHost: h:1\r\n"));
        assert!(!request.to_ascii_lowercase().contains("authorization"));
    }
}
