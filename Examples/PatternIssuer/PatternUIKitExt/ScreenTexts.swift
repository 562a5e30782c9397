import Foundation

/// The login screen's words in the issuer's language: `PatternLanguage` in the extension's
/// Info.plist (`es` for Spanish, English otherwise), as localized issuers ship. A Spanish screen
/// has no button titled "Cancel": its user leaves with "Cancelar" or by dismissing the sheet.
struct ScreenTexts: Sendable {
    let logIn: String
    let cancel: String

    static let english = ScreenTexts(logIn: "Log In", cancel: "Cancel")
    static let spanish = ScreenTexts(logIn: "Continuar", cancel: "Cancelar")

    /// The texts for the language the Info.plist names.
    static var current: ScreenTexts {
        Bundle.main.object(forInfoDictionaryKey: "PatternLanguage") as? String == "es" ? spanish : english
    }
}
