import Foundation
import PackagePlugin

/// Compiles each gettext catalogue (`*.po`) of a target with `msgfmt --check` into a binary
/// `*.mo`, which becomes one of the target's resources.
@main
struct CompileTranslations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return target.sourceFiles(withSuffix: "po").map { file in
            let language = file.url.deletingPathExtension().lastPathComponent
            let output = context.pluginWorkDirectoryURL.appending(path: "\(language).mo")
            return .buildCommand(displayName: "Compiling the \(language) translation",
                                 executable: URL(fileURLWithPath: "/usr/bin/msgfmt"),
                                 arguments: ["--check", "-o", output.path, file.url.path],
                                 inputFiles: [file.url], outputFiles: [output])
        }
    }
}
