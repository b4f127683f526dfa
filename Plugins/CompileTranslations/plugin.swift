import Foundation
import PackagePlugin

/// Compiles each gettext catalogue (`*.po`) of a target with `msgfmt --check` into the binary
/// `.mo` form and embeds them in one generated Swift file, base64 by language. Embedded, not
/// resources: a resource bundle would make SwiftPM generate an accessor that imports all of
/// Foundation into every binary using the target (DESIGN.md §2).
@main
struct CompileTranslations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let catalogues = target.sourceFiles(withSuffix: "po").map(\.url).sorted { $0.path < $1.path }
        guard !catalogues.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedCatalogs.swift")
        let script = #"""
            out="$1"; shift
            {
              echo '// Made at build time from Translations/*.po by the CompileTranslations plugin: do not edit.'
              echo 'extension Catalog {'
              echo '    /// Each language'"'"'s compiled catalogue (gettext .mo), base64.'
              echo '    static let embedded: [String: String] = ['
              for file in "$@"; do
                mo=$(/usr/bin/msgfmt --check -o - "$file" | base64 -w0) || exit 1
                printf '        "%s": "%s",\n' "$(basename "$file" .po)" "$mo"
              done
              echo '    ]'
              echo '}'
            } > "$out.partial" && mv "$out.partial" "$out"
            """#
        return [.buildCommand(displayName: "Compiling \(catalogues.count) translation(s)",
                              executable: URL(fileURLWithPath: "/bin/sh"),
                              arguments: ["-c", script, "compile", output.path] + catalogues.map(\.path),
                              inputFiles: catalogues, outputFiles: [output])]
    }
}
