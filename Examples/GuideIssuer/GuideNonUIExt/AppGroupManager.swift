// AppGroupManager.swift
//
// The App Group this issuer's app and extensions share, set up as the Wallet Extensions
// guide does on iOS.

import Foundation

let appGroupID: String = "group.com.example.guideissuer"
let appGroupSharedContainerDirectory: URL? = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroupID)
let appGroupSharedDefaults: UserDefaults = UserDefaults(suiteName: appGroupID)!
