import UIKit

/// The backend's password check: POST /login (URLSession: the target imports FoundationNetworking into every file).
enum LoginBackend {
    static func check(username: String, password: String, completion: @escaping (Bool) -> Void) {
        guard let base = (Bundle.main.object(forInfoDictionaryKey: "IssuerBackendURL") as? String).flatMap(URL.init(string:)) else {
            completion(false)
            return
        }
        var request = URLRequest(url: base.appendingPathComponent("login"))
        request.httpMethod = "POST"
        request.httpBody = try? JSONSerialization.data(withJSONObject: ["username": username, "password": password])
        URLSession.shared.dataTask(with: request) { _, response, _ in
            completion((response as? HTTPURLResponse)?.statusCode == 200)
        }.resume()
    }
}
