// swift-tools-version: 6.0
import PackageDescription

/// The modules of the `vocab` binary use FoundationEssentials, never all of Foundation (which
/// links ICU and CoreFoundation in and doubles a command's start-up): with this setting a
/// Foundation-only API is a compile error even where another module imports Foundation.
let withoutFoundation: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "Vocab",
    products: [
        .executable(name: "vocab", targets: ["vocab"]),
        .executable(name: "vocab-bench", targets: ["vocab-bench"]),
        .executable(name: "vocab-bench-spawn", targets: ["vocab-bench-spawn"]),
        .executable(name: "vocab-desktop", targets: ["vocab-desktop"]),
        .library(name: "VocabCore", targets: ["VocabCore"]),
        .library(name: "VocabStore", targets: ["VocabStore"]),
        .library(name: "VocabSessions", targets: ["VocabSessions"]),
    ],
    targets: [
        // Debian's libsqlite3, reached through a system-library target.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Debian's libpq, for the PostgreSQL cloud: loaded when first used (see its shim), so
        // not linked (no pkg-config: its -lpq would map libpq into every command).
        .systemLibrary(
            name: "CLibPQ",
            path: "Sources/CLibPQ",
            providers: [.apt(["libpq-dev"])]
        ),
        // Debian's libzip and libxml2, for the zip-based files people bring (.xlsx). libzip is
        // loaded when first used (see its shim), not linked, so no pkg-config.
        .systemLibrary(name: "CZip", path: "Sources/CZip", providers: [.apt(["libzip-dev"])]),
        // Debian's libxml2, loaded when a workbook is read (see its shim), not linked.
        .systemLibrary(name: "CXML2", path: "Sources/CXML2", providers: [.apt(["libxml2"])]),
        // Debian's libzstd, for the collections current Anki packages hold: loaded when one is
        // read (see its shim), not linked, so no pkg-config.
        .systemLibrary(name: "CZstd", path: "Sources/CZstd", providers: [.apt(["libzstd-dev"])]),
        // Debian's libsodium, for the cloud's password verifiers (Argon2id) and SCRAM checks:
        // loaded when a password is first checked (see its shim), not linked.
        .systemLibrary(name: "CSodium", path: "Sources/CSodium", providers: [.apt(["libsodium-dev"])]),
        // Debian's libcurl (OpenSSL), for devices that sync with a Vocab server over HTTPS:
        // loaded when one is first reached (see its shim), not linked.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The few POSIX pieces the layers above share: threads, child processes, reading and
        // writing files.
        .target(name: "VocabSystem", swiftSettings: withoutFoundation),
        // Models, validation, errors, text rules, scheduling: Swift on libc alone (its math, the
        // local time zone, the environment) and VocabSystem's threads; no file or network I/O.
        .target(name: "VocabCore", dependencies: ["VocabSystem"], swiftSettings: withoutFoundation),
        // The SQLite store: schema, migrations, queries, change observation.
        .target(name: "VocabStore", dependencies: ["VocabCore", "CSQLite", "VocabSystem"], swiftSettings: withoutFoundation),
        // Zip-based files: Excel workbooks (.xlsx) read as rows, streamed and bounded.
        .target(name: "VocabArchives", dependencies: ["VocabCore", "CZip", "CXML2", "VocabSystem"], swiftSettings: withoutFoundation),
        // Anki packages (.apkg, .colpkg): read in both layouts, written in the legacy one.
        .target(name: "VocabAnki", dependencies: ["VocabCore", "VocabStore", "VocabArchives", "CZstd", "VocabSystem"], swiftSettings: withoutFoundation),
        // What a device and the cloud say to each other, as values: the device API's routes and
        // bodies, addresses, device keys, sharing's values and channels, the cloud's errors.
        .target(name: "VocabCloudAPI", dependencies: ["VocabCore"], swiftSettings: withoutFoundation),
        // The device's side of the cloud: the sync engine and its client of a Vocab server
        // (over HTTPS, libcurl).
        .target(name: "VocabSync", dependencies: ["VocabCore", "VocabCloudAPI", "VocabStore", "VocabSystem", "CCurl"], swiftSettings: withoutFoundation),
        // The cloud itself, for the server and the administrator: its schema and functions in
        // PostgreSQL (libpq), accounts, devices and password verifiers (libsodium).
        // Its SQL is in `SQL/`, embedded at build time by the EmbedSQL plugin.
        .target(name: "VocabCloud", dependencies: ["VocabCore", "VocabStore", "VocabCloudAPI", "CLibPQ", "CSodium"], swiftSettings: withoutFoundation,
                plugins: ["EmbedSQL"]),
        // Offline WordNet, DICT servers (RFC 2229), espeak-ng pronunciation, web dictionary URLs.
        .target(name: "VocabDictionary", dependencies: ["VocabCore", "VocabSystem"], swiftSettings: withoutFoundation),
        // The workflows every front end shares: game, study, word form, sync, transfer, paths.
        // No terminal and no widget code; the time comes from a clock passed in.
        .target(name: "VocabSessions", dependencies: ["VocabSystem", "VocabCore", "VocabStore", "VocabDictionary", "VocabSync", "VocabCloudAPI", "VocabArchives", "VocabAnki"], swiftSettings: withoutFoundation),
        // The cloud's session layer, for the server of many and the administrator: sign-in and its
        // limits, the devices, each learner's store kept in step with the cloud, sharing, the
        // administrator's operations. Every protocol's handler calls it (front ends import it,
        // never VocabCloud).
        .target(name: "VocabCloudSessions", dependencies: ["VocabSystem", "VocabCore", "VocabCloudAPI", "VocabCloud", "VocabSessions"],
                swiftSettings: withoutFoundation),
        // Commands, prompts and output of the terminal application.
        // Debian's libqrencode, for the QR code `vocab serve` prints for a phone to scan: loaded
        // when one is drawn (see its shim), not linked.
        .systemLibrary(name: "CQREncode", path: "Sources/CQREncode", providers: [.apt(["libqrencode-dev"])]),
        // Debian's libmicrohttpd, for the web app's server: loaded when a server starts (see its
        // shim), not linked, so no pkg-config.
        .systemLibrary(name: "CMHD", path: "Sources/CMHD", providers: [.apt(["libmicrohttpd-dev"])]),
        // The strings the window and the web app show, in English and Korean: one gettext catalogue
        // (Translations/*.po, compiled by msgfmt at build time into the module's resources).
        .target(name: "VocabCatalog", dependencies: ["VocabCore"], swiftSettings: withoutFoundation, plugins: ["CompileTranslations"]),
        // The words of the window and the web app for the layers' values and errors, through the catalogue.
        .target(name: "VocabWording", dependencies: ["VocabCore", "VocabSessions", "VocabCloudAPI", "VocabCatalog"], swiftSettings: withoutFoundation),
        // The web app: an HTTP server (bounded per address), the JSON API over the sessions and the
        // pages, for one learner's store (`vocab serve`); the server of many builds on it.
        .target(name: "VocabWeb", dependencies: ["VocabSystem", "VocabCore", "VocabCloudAPI", "VocabSessions", "VocabAnkiSync", "VocabDictionary", "VocabCatalog", "VocabWording", "CMHD"], swiftSettings: withoutFoundation, plugins: ["EmbedWebPages"]),
        // Anki's sync protocol in front of a Vocab server's accounts: Anki desktop, AnkiDroid and
        // AnkiMobile sync with a learner's account (a translator: the rules are the accounts').
        .target(name: "VocabAnkiSync", dependencies: ["VocabCore", "VocabCloudAPI", "VocabSessions", "VocabAnki"], swiftSettings: withoutFoundation),
        // The server of many learners (`vocab serve --cloud`): each signs in with a cloud account
        // and studies on a store of the server's kept in step with the cloud; the cloud's only
        // door (sign-in limits, fair shares of its few connections, the device API).
        .target(name: "VocabServer", dependencies: ["VocabSystem", "VocabCore", "VocabCloudAPI", "VocabCloudSessions", "VocabSessions", "VocabCatalog", "VocabWeb",
                                                 "VocabAnkiSync"],
                swiftSettings: withoutFoundation),
        .target(name: "VocabCLI", dependencies: ["VocabSystem", "VocabCore", "VocabDictionary", "VocabCloudAPI", "VocabCloudSessions", "VocabSessions", "VocabWeb",
                                                 "VocabServer", "VocabCatalog", "CQREncode"], swiftSettings: withoutFoundation),
        .executableTarget(name: "vocab", dependencies: ["VocabCLI"]),
        // GTK 4 and libadwaita (Debian's libgtk-4-dev, libadwaita-1-dev), with a shim for the
        // macros and variadic functions Swift cannot import.
        .systemLibrary(
            name: "CGtk",
            path: "Sources/CGtk",
            pkgConfig: "libadwaita-1",
            providers: [.apt(["libgtk-4-dev", "libadwaita-1-dev"])]
        ),
        // A lazy GListModel in C: long word lists cost a count, not an object per word.
        .target(name: "CVocabListModel", dependencies: ["CGtk"]),
        // The GTK 4 window: screens over the sessions, widgets only.
        // Its strings come from VocabCatalog (shared with the web app).
        .target(name: "VocabDesktop", dependencies: ["VocabCore", "VocabSessions", "VocabDictionary", "VocabCloudAPI",
                                                     "VocabCatalog", "VocabWording", "CGtk", "CVocabListModel"]),
        .plugin(name: "CompileTranslations", capability: .buildTool()),
        .plugin(name: "EmbedWebPages", capability: .buildTool()),
        .plugin(name: "EmbedSQL", capability: .buildTool()),
        .executableTarget(name: "vocab-desktop", dependencies: ["VocabDesktop"]),
        // Speed and memory figures against references measured in the same run (DESIGN.md §10).
        .executableTarget(name: "vocab-bench", dependencies: ["VocabSessions", "VocabStore", "VocabCore", "VocabSync", "VocabCloudAPI", "VocabCloud", "VocabSystem"]),
        // The small process vocab-bench measures its children through (see its main.c).
        .executableTarget(name: "vocab-bench-spawn", path: "Sources/vocab-bench-spawn"),

        // The services the suite starts, found or missed the same way by every test target.
        .target(name: "TestServices", path: "Tests/TestServices"),
        .testTarget(name: "VocabCoreTests", dependencies: ["VocabCore"], exclude: ["Data"]),
        .testTarget(name: "VocabSystemTests", dependencies: ["VocabSystem", "TestServices"]),
        .testTarget(name: "VocabSyncTests", dependencies: ["VocabSync", "VocabCloudAPI", "VocabCloud", "VocabCore", "TestServices"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "VocabDictionaryTests", dependencies: ["VocabDictionary", "VocabCore", "TestServices"]),
        .testTarget(name: "VocabSessionsTests", dependencies: ["VocabSessions", "VocabStore", "VocabCore", "VocabSync", "VocabCloudAPI", "VocabDictionary", "VocabSystem"]),
        .testTarget(name: "VocabStoreTests", dependencies: ["VocabStore", "VocabCore", "CSQLite", "TestServices"]),
        .testTarget(name: "VocabArchivesTests", dependencies: ["VocabArchives", "VocabSystem"]),
        .testTarget(name: "VocabAnkiSyncTests", dependencies: ["VocabAnkiSync", "VocabAnki", "VocabArchives", "VocabCloudAPI", "VocabCore",
                                                             "VocabSessions", "VocabStore"]),
        .testTarget(name: "VocabWordingTests", dependencies: ["VocabWording", "VocabCatalog", "VocabCore", "VocabSessions", "VocabCloudAPI", "VocabSystem",
                                                         "VocabStore", "VocabDictionary", "VocabAnki", "VocabArchives"]),
        .testTarget(name: "VocabAnkiTests", dependencies: ["VocabAnki", "VocabCore", "VocabSystem"]),
        .testTarget(name: "VocabWebTests", dependencies: ["VocabWeb", "VocabCore", "VocabStore", "VocabSync", "VocabCloudAPI", "TestServices"]),
        .testTarget(name: "VocabServerTests", dependencies: ["VocabServer", "VocabCloudSessions", "VocabWeb", "VocabSessions", "VocabCore", "VocabStore", "VocabSync",
                                                             "VocabCloudAPI", "VocabCatalog", "TestServices"]),
        // End-to-end: runs the built `vocab` binary as a separate process.
        .testTarget(name: "VocabCLITests", dependencies: ["vocab", "VocabCore", "VocabStore", "VocabSystem", "TestServices"], exclude: ["Fixtures"]),
    ]
)
