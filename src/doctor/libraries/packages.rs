//! The distribution packages that provide the shared libraries adt-ls (an Eclipse/SWT
//! application with a bundled JRE) and its GTK 3, X11, font and sound stack need: library
//! name to Debian/Ubuntu package (Debian 12 "bookworm" names, each checked with
//! `apt-cache show` against Debian's archive; Ubuntu 24.04 and Debian 13 install them through
//! their `t64` successors under the same names) and RHEL/Fedora package (not checked against
//! a RHEL archive: none was reachable). README's Dockerfile installs the Debian column's
//! direct needs.

/// `(library, Debian/Ubuntu package, RHEL package)`.
pub(crate) const PACKAGES: &[(&str, &str, &str)] = &[
    ("libc.so.6", "libc6", "glibc"),
    ("libm.so.6", "libc6", "glibc"),
    ("libdl.so.2", "libc6", "glibc"),
    ("libpthread.so.0", "libc6", "glibc"),
    ("librt.so.1", "libc6", "glibc"),
    ("libresolv.so.2", "libc6", "glibc"),
    ("ld-linux-x86-64.so.2", "libc6", "glibc"),
    ("ld-linux-aarch64.so.1", "libc6", "glibc"),
    ("libgcc_s.so.1", "libgcc-s1", "libgcc"),
    ("libstdc++.so.6", "libstdc++6", "libstdc++"),
    ("libz.so.1", "zlib1g", "zlib"),
    ("libglib-2.0.so.0", "libglib2.0-0", "glib2"),
    ("libgobject-2.0.so.0", "libglib2.0-0", "glib2"),
    ("libgio-2.0.so.0", "libglib2.0-0", "glib2"),
    ("libgmodule-2.0.so.0", "libglib2.0-0", "glib2"),
    ("libgthread-2.0.so.0", "libglib2.0-0", "glib2"),
    ("libgtk-3.so.0", "libgtk-3-0", "gtk3"),
    ("libgdk-3.so.0", "libgtk-3-0", "gtk3"),
    ("libgtk-x11-2.0.so.0", "libgtk2.0-0", "gtk2"),
    ("libgdk-x11-2.0.so.0", "libgtk2.0-0", "gtk2"),
    (
        "libgdk_pixbuf-2.0.so.0",
        "libgdk-pixbuf-2.0-0",
        "gdk-pixbuf2",
    ),
    ("libpango-1.0.so.0", "libpango-1.0-0", "pango"),
    ("libpangocairo-1.0.so.0", "libpangocairo-1.0-0", "pango"),
    ("libpangoft2-1.0.so.0", "libpangoft2-1.0-0", "pango"),
    ("libcairo.so.2", "libcairo2", "cairo"),
    (
        "libcairo-gobject.so.2",
        "libcairo-gobject2",
        "cairo-gobject",
    ),
    ("libatk-1.0.so.0", "libatk1.0-0", "atk"),
    (
        "libatk-bridge-2.0.so.0",
        "libatk-bridge2.0-0",
        "at-spi2-atk",
    ),
    ("libatspi.so.0", "libatspi2.0-0", "at-spi2-core"),
    ("libharfbuzz.so.0", "libharfbuzz0b", "harfbuzz"),
    ("libfontconfig.so.1", "libfontconfig1", "fontconfig"),
    ("libfreetype.so.6", "libfreetype6", "freetype"),
    ("libX11.so.6", "libx11-6", "libX11"),
    ("libX11-xcb.so.1", "libx11-xcb1", "libX11-xcb"),
    ("libxcb.so.1", "libxcb1", "libxcb"),
    ("libXau.so.6", "libxau6", "libXau"),
    ("libXdmcp.so.6", "libxdmcp6", "libXdmcp"),
    ("libXext.so.6", "libxext6", "libXext"),
    ("libXrender.so.1", "libxrender1", "libXrender"),
    ("libXtst.so.6", "libxtst6", "libXtst"),
    ("libXi.so.6", "libxi6", "libXi"),
    ("libXrandr.so.2", "libxrandr2", "libXrandr"),
    ("libXcursor.so.1", "libxcursor1", "libXcursor"),
    ("libXcomposite.so.1", "libxcomposite1", "libXcomposite"),
    ("libXdamage.so.1", "libxdamage1", "libXdamage"),
    ("libXfixes.so.3", "libxfixes3", "libXfixes"),
    ("libXinerama.so.1", "libxinerama1", "libXinerama"),
    ("libXt.so.6", "libxt6", "libXt"),
    ("libXss.so.1", "libxss1", "libXScrnSaver"),
    ("libXxf86vm.so.1", "libxxf86vm1", "libXxf86vm"),
    ("libxkbcommon.so.0", "libxkbcommon0", "libxkbcommon"),
    (
        "libwayland-client.so.0",
        "libwayland-client0",
        "libwayland-client",
    ),
    (
        "libwayland-cursor.so.0",
        "libwayland-cursor0",
        "libwayland-cursor",
    ),
    ("libwayland-egl.so.1", "libwayland-egl1", "libwayland-egl"),
    ("libepoxy.so.0", "libepoxy0", "libepoxy"),
    ("libfribidi.so.0", "libfribidi0", "fribidi"),
    ("libpixman-1.so.0", "libpixman-1-0", "pixman"),
    ("libthai.so.0", "libthai0", "libthai"),
    ("libgraphite2.so.3", "libgraphite2-3", "graphite2"),
    ("libexpat.so.1", "libexpat1", "expat"),
    ("libffi.so.8", "libffi8", "libffi"),
    ("libpcre2-8.so.0", "libpcre2-8-0", "pcre2"),
    ("libmount.so.1", "libmount1", "libmount"),
    ("libblkid.so.1", "libblkid1", "libblkid"),
    ("libselinux.so.1", "libselinux1", "libselinux"),
    ("libuuid.so.1", "libuuid1", "libuuid"),
    ("libbrotlidec.so.1", "libbrotli1", "brotli"),
    ("libbz2.so.1.0", "libbz2-1.0", "bzip2-libs"),
    ("libpng16.so.16", "libpng16-16", "libpng"),
    ("libjpeg.so.62", "libjpeg62-turbo", "libjpeg-turbo"),
    ("libdbus-1.so.3", "libdbus-1-3", "dbus-libs"),
    ("libcups.so.2", "libcups2", "cups-libs"),
    ("libasound.so.2", "libasound2", "alsa-lib"),
    ("libGL.so.1", "libgl1", "libglvnd-glx"),
    ("libsecret-1.so.0", "libsecret-1-0", "libsecret"),
];

/// The Debian/Ubuntu and RHEL packages providing `library`, if the table knows it.
pub(crate) fn packages_for(library: &str) -> Option<(&'static str, &'static str)> {
    PACKAGES
        .iter()
        .find(|(l, _, _)| *l == library)
        .map(|&(_, deb, rpm)| (deb, rpm))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stack_adt_ls_needs_is_known_and_names_are_unique() {
        for lib in [
            "libgtk-3.so.0",
            "libX11.so.6",
            "libXtst.so.6",
            "libfontconfig.so.1",
            "libfreetype.so.6",
            "libasound.so.2",
        ] {
            assert!(packages_for(lib).is_some(), "{lib}");
        }
        assert_eq!(packages_for("libgtk-3.so.0"), Some(("libgtk-3-0", "gtk3")));
        assert_eq!(packages_for("libnope.so.1"), None);
        let mut names: Vec<&str> = PACKAGES.iter().map(|p| p.0).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), PACKAGES.len());
    }
}
