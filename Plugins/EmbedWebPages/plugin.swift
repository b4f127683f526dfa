import Foundation
import PackagePlugin

/// Embeds the web app's files (a target's `Pages/` folder) in the binary: one generated Swift
/// file holding each file by name, plain and gzip-compressed (`gzip -9n`, so the same input
/// gives the same bytes), both as base64 text (quick to compile, unlike byte-array literals).
@main
struct EmbedWebPages: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let pages = target.sourceFiles.map(\.url).filter { $0.pathComponents.contains("Pages") }.sorted { $0.path < $1.path }
        guard !pages.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPages.swift")
        let script = #"""
            out="$1"; shift
            {
              echo '// Made at build time from Pages/ by the EmbedWebPages plugin: do not edit.'
              echo 'extension WebPages {'
              echo '    /// Each file by its name: (plain, gzip-compressed), both base64.'
              echo '    static let embedded: [String: (plain: String, gzip: String)] = ['
              for file in "$@"; do
                printf '        "%s": ("%s", "%s"),\n' "$(basename "$file")" "$(base64 -w0 "$file")" "$(gzip -9n -c "$file" | base64 -w0)"
              done
              echo '    ]'
              echo '}'
            } > "$out.partial" && mv "$out.partial" "$out"
            """#
        return [.buildCommand(displayName: "Embedding the web app's \(pages.count) files",
                              executable: URL(fileURLWithPath: "/bin/sh"),
                              arguments: ["-c", script, "embed", output.path] + pages.map(\.path),
                              inputFiles: pages, outputFiles: [output])]
    }
}
