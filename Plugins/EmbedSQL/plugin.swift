import Foundation
import PackagePlugin

/// Embeds a target's SQL files (its `SQL/` folder) in the binary: one generated Swift file
/// holding each file's text by name, as base64 (any byte of SQL is safe in it, and it compiles
/// quickly). The target reads them through `embeddedSQL`.
@main
struct EmbedSQL: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles.map(\.url).filter { $0.pathComponents.contains("SQL") && $0.pathExtension == "sql" }
            .sorted { $0.path < $1.path }
        guard !files.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSQL.swift")
        let script = #"""
            out="$1"; shift
            {
              echo '// Made at build time from SQL/ by the EmbedSQL plugin: do not edit.'
              echo '/// Each SQL file by its name, base64.'
              echo 'let embeddedSQL: [String: String] = ['
              for file in "$@"; do
                printf '    "%s": "%s",\n' "$(basename "$file")" "$(base64 -w0 "$file")"
              done
              echo ']'
            } > "$out.partial" && mv "$out.partial" "$out"
            """#
        return [.buildCommand(displayName: "Embedding \(files.count) SQL files",
                              executable: URL(fileURLWithPath: "/bin/sh"),
                              arguments: ["-c", script, "embed", output.path] + files.map(\.path),
                              inputFiles: files, outputFiles: [output])]
    }
}
