// SPDX-License-Identifier: LGPL-2.1-or-later
// Finds libexterr for the link and, with the `regen` feature, runs bindgen.
//
// Lookup order: pkg-config (honours PKG_CONFIG_PATH, so an uninstalled
// prefix works), then EXTERR_LIB_DIR / EXTERR_INCLUDE_DIR. When neither
// finds it the build fails with pkg-config's whole answer and what to do:
// carrying on would only turn it into an undefined-symbol error at the
// first link, and cargo hides a dependency's warnings, so nothing would
// say why.
//
// Static linking: EXTERR_STATIC=1 (the pkg-config crate's own convention
// for a package called "exterr"), or building with
// `-C target-feature=+crt-static`, links libexterr.a and everything
// `pkg-config --static` lists (jansson) statically.

use std::env;
use std::path::PathBuf;

/// The oldest libexterr with every function in src/bindings.rs
/// (`exterr_supported()`, `exterr_fetch_ex()` and `exterr_value()` are new
/// in 1.1).
const MIN_VERSION: &str = "1.1";

fn main() {
    println!("cargo:rerun-if-env-changed=EXTERR_STATIC");
    println!("cargo:rerun-if-env-changed=EXTERR_LIB_DIR");
    println!("cargo:rerun-if-env-changed=EXTERR_INCLUDE_DIR");
    println!("cargo:rerun-if-env-changed=EXTERR_SYS_BINDINGS_OUT");

    // docs.rs builds documentation without libexterr; rustdoc does not
    // link, and the checked-in bindings need nothing from the system.
    if env::var_os("DOCS_RS").is_some() {
        return;
    }

    let statik = want_static();
    let include_dirs = match probe_pkg_config(statik) {
        Ok(dirs) => dirs,
        Err(why) => fallback(statik, &why),
    };
    // Dependents' build scripts see these as DEP_EXTERR_INCLUDE.
    if let Some(first) = include_dirs.first() {
        println!("cargo:include={}", first.display());
    }

    #[cfg(feature = "regen")]
    regen::generate(&include_dirs);
}

fn want_static() -> bool {
    let env_static = env::var("EXTERR_STATIC").is_ok_and(|v| !v.is_empty() && v != "0");
    // A crt-static binary cannot load libexterr.so anyway, so follow it.
    let crt_static = env::var("CARGO_CFG_TARGET_FEATURE")
        .map(|f| f.split(',').any(|x| x == "crt-static"))
        .unwrap_or(false);
    env_static || crt_static
}

/// Returns the include directories, or pkg-config's complete answer (it
/// spans several lines) when it has no usable exterr.
fn probe_pkg_config(statik: bool) -> Result<Vec<PathBuf>, String> {
    let lib = pkg_config::Config::new()
        .atleast_version(MIN_VERSION)
        .statik(statik)
        // We print the link lines ourselves (see emit_links) so that
        // static mode is the same whatever directory jansson lives in.
        .cargo_metadata(false)
        .probe("exterr")
        .map_err(|e| e.to_string())?;
    emit_links(&lib.link_paths, &lib.libs, statik);
    Ok(lib.include_paths)
}

/// EXTERR_LIB_DIR (and EXTERR_INCLUDE_DIR) when pkg-config failed, or a
/// build failure that shows why pkg-config failed.
fn fallback(statik: bool, pkg_config_error: &str) -> Vec<PathBuf> {
    let Some(lib_dir) = env::var_os("EXTERR_LIB_DIR").map(PathBuf::from) else {
        panic!("{}", not_found_message(pkg_config_error));
    };
    // One cargo:warning per line: a newline would end the directive and
    // cargo would drop the rest.
    println!(
        "cargo:warning=pkg-config found no exterr; using EXTERR_LIB_DIR={}",
        lib_dir.display()
    );
    for line in pkg_config_error.lines().filter(|l| !l.trim().is_empty()) {
        println!("cargo:warning=  {line}");
    }
    // Without pkg-config nobody tells us about jansson; a static link
    // needs it spelled out (the shared library records it itself).
    let mut libs = vec!["exterr".to_string()];
    if statik {
        libs.push("jansson".to_string());
    }
    emit_links(&[lib_dir], &libs, statik);
    env::var_os("EXTERR_INCLUDE_DIR")
        .map(PathBuf::from)
        .into_iter()
        .collect()
}

fn not_found_message(pkg_config_error: &str) -> String {
    let mut msg = vec![
        String::new(),
        format!("exterr-sys: libexterr {MIN_VERSION} or later not found."),
        String::new(),
        "pkg-config said:".to_string(),
    ];
    msg.extend(
        pkg_config_error
            .lines()
            .map(|l| format!("    {l}").trim_end().to_string()),
    );
    msg.extend(
        [
            "",
            "To fix it, either",
            "  - install libexterr, e.g. from the exterr source tree:",
            "        cmake -S . -B build && cmake --build build",
            "        cmake --install build --prefix PREFIX",
            "    and point pkg-config at the directory holding exterr.pc:",
            "        export PKG_CONFIG_PATH=PREFIX/lib/pkgconfig",
            "    (lib64 or lib/<triple> on some systems; at run time also",
            "    LD_LIBRARY_PATH=PREFIX/lib unless PREFIX is a system prefix); or",
            "  - set EXTERR_LIB_DIR to the directory holding libexterr.so or",
            "    libexterr.a to link without pkg-config (and EXTERR_INCLUDE_DIR",
            "    to the one holding exterr.h, for the `regen` feature).",
            "",
        ]
        .map(String::from),
    );
    msg.join("\n")
}

fn emit_links(dirs: &[PathBuf], libs: &[String], statik: bool) {
    let mut seen_dirs = Vec::new();
    for dir in dirs {
        if !seen_dirs.contains(&dir) {
            seen_dirs.push(dir);
            println!("cargo:rustc-link-search=native={}", dir.display());
        }
    }
    // The pkg-config crate can list a library twice (jansson, exterr,
    // jansson); rustc rejects repeated modifiers. Keep the last of each,
    // which preserves what a static link needs: users before providers.
    let last: Vec<&String> = libs
        .iter()
        .enumerate()
        .filter(|(i, l)| !libs[i + 1..].contains(l))
        .map(|(_, l)| l)
        .collect();
    for lib in last {
        if statik {
            // `-bundle`: leave the archive to the final link (with
            // -Bstatic) instead of copying it into the rlib; that way
            // rustc need not find libjansson.a itself, the linker's
            // default path (/usr/lib/<triple>) is enough.
            println!("cargo:rustc-link-lib=static:-bundle={lib}");
        } else {
            println!("cargo:rustc-link-lib={lib}");
        }
    }
}

#[cfg(feature = "regen")]
mod regen {
    use std::env;
    use std::path::{Path, PathBuf};

    /// Writes $OUT_DIR/bindings.rs (compiled instead of src/bindings.rs
    /// under this feature) and, when EXTERR_SYS_BINDINGS_OUT names a file,
    /// a copy there for regen.sh to install or diff.
    pub fn generate(include_dirs: &[PathBuf]) {
        let args = include_dirs.iter().map(|d| format!("-I{}", d.display()));
        let bindings = bindgen::Builder::default()
            .header_contents("exterr-wrapper.h", "#include <exterr.h>\n")
            // The output is part of this crate and under its licence.
            .raw_line("// SPDX-License-Identifier: LGPL-2.1-or-later")
            .clang_args(args)
            // Only the library's own API: stddef.h's types stay out.
            .allowlist_function("exterr_.*")
            .allowlist_type("exterr.*")
            .allowlist_var("PR_GET_ERR_DESC|PR_ERR_DESC_NOTES|EXTERR_.*")
            // Constants, not a Rust enum (exterr_field_type and
            // exterr_severity alike): the C side may hand out a value this
            // crate does not know, which a Rust enum cannot hold.
            .prepend_enum_name(false)
            // The crate is no_std: nothing here needs more than core.
            .use_core()
            // A fixed formatter pinned by Cargo.lock, so the output does
            // not change with the installed rustfmt.
            .formatter(bindgen::Formatter::Prettyplease)
            .generate_comments(true)
            .layout_tests(true)
            .generate()
            .expect("bindgen failed on <exterr.h>");

        let out = PathBuf::from(env::var_os("OUT_DIR").unwrap()).join("bindings.rs");
        bindings.write_to_file(&out).expect("writing bindings");
        if let Some(copy) = env::var_os("EXTERR_SYS_BINDINGS_OUT") {
            std::fs::copy(&out, Path::new(&copy)).expect("copying bindings");
        }
    }
}
