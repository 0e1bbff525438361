import Foundation

/// The Python that runs the project's Python tools (Playwright, schemathesis): the virtual
/// environment `scripts/setup.sh --tests` makes in .build/python, else the `python3` on PATH.
public enum PythonTools {
    /// The executable and the arguments that come before a script's.
    public static var interpreter: (executable: String, arguments: [String]) {
        let venv = Processes.packageRoot.appending(path: ".build/python/bin/python3").path
        if FileManager.default.isExecutableFile(atPath: venv) { return (venv, []) }
        return ("/usr/bin/env", ["python3"])
    }

    /// Runs the Python tool with `arguments` (a script path, or `-c CODE`), as Processes.run does.
    public static func run(_ arguments: [String], environment: [String: String] = [:],
                           workingDirectory: URL? = nil) throws -> ProcessResult {
        let (executable, leading) = interpreter
        return try Processes.run(executable, leading + arguments, environment: environment, workingDirectory: workingDirectory)
    }
}
