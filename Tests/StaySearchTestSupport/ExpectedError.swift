/// The error object the API answers with, written out by hand so that tests compare answers with the
/// documented shape (docs/errors.md) rather than with the code that makes them.
public enum ExpectedError {
    /// `{"error": M, "message": M, "code": C, "type": T}`.
    public static func json(_ message: String, code: String, type: String = "invalid_request") -> String {
        #"{"error":"\#(message)","message":"\#(message)","code":"\#(code)","type":"\#(type)"}"#
    }
}
