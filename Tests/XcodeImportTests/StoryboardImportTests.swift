import Foundation
import Testing
import WalletTestSupport
@testable import XcodeImport

/// Issue 33, bug 3: a storyboard-only UI extension (NSExtensionMainStoryboard, no
/// NSExtensionPrincipalClass) stopped the import, and the host sent the storyboard's name as
/// the class. Import now reads the storyboard: its initial view controller's class becomes the
/// principal class, and its scene becomes Swift.
@Suite("Importing a storyboard-only UI extension")
struct StoryboardImportTests {
    static let uiInfo = """
        <key>NSExtension</key><dict>
        <key>NSExtensionPointIdentifier</key><string>com.apple.PassKit.issuer-provisioning.authorization</string>
        <key>NSExtensionMainStoryboard</key><string>MainInterface</string>
        </dict>
        """

    static let storyboard = """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" useAutolayout="YES" initialViewController="ObA-dk-sSI">
            <scenes>
                <!--Add Card-->
                <scene sceneID="EHf-IW-A2E">
                    <objects>
                        <viewController id="ObA-dk-sSI" customClass="ActionViewController" customModule="Ext" customModuleProvider="target" sceneMemberID="viewController">
                            <view key="view" contentMode="scaleToFill" id="zMn-AG-sqS">
                                <subviews>
                                    <label opaque="NO" text="Agregar &quot;tarjeta&quot;" id="lbl-1"/>
                                    <textField placeholder="PIN" id="pin-1">
                                        <textInputTraits key="textInputTraits" secureTextEntry="YES"/>
                                    </textField>
                                    <button opaque="NO" buttonType="system" id="btn-1">
                                        <state key="normal" title="Continuar"/>
                                        <connections>
                                            <action selector="continueTapped:" destination="ObA-dk-sSI" eventType="touchUpInside" id="a-1"/>
                                        </connections>
                                    </button>
                                    <button opaque="NO" buttonType="system" id="btn-2">
                                        <buttonConfiguration key="configuration" style="plain" title="Cancelar"/>
                                        <connections>
                                            <action selector="cancelWithSender:" destination="ObA-dk-sSI" eventType="touchUpInside" id="a-2"/>
                                        </connections>
                                    </button>
                                </subviews>
                            </view>
                            <connections>
                                <outlet property="titleLabel" destination="lbl-1" id="o-1"/>
                            </connections>
                        </viewController>
                    </objects>
                </scene>
            </scenes>
        </document>
        """

    private func project(_ directory: TemporaryDirectory, storyboard: String = storyboard) throws -> MiniProject {
        try MiniProject(root: directory.url, extensionInfo: Self.uiInfo, resources: ["STORYBOARD"],
                        objects: """
                            STORYBOARD = {isa = PBXVariantGroup; children = (STORYBOARD_BASE, ); name = MainInterface.storyboard; sourceTree = "<group>"; };
                            STORYBOARD_BASE = {isa = PBXFileReference; name = Base; path = Ext/Base.lproj/MainInterface.storyboard; sourceTree = "<group>"; };
                            """,
                        files: ["Ext/Base.lproj/MainInterface.storyboard": storyboard])
    }

    @Test("the initial view controller's class is the principal class, in main.swift and the Info.plist")
    func principalFromStoryboard() throws {
        let directory = try TemporaryDirectory(prefix: "storyboard-import")
        defer { directory.remove() }
        let plan = try project(directory).plan()
        let bundle = try #require(plan.apps.first?.extensions.first)
        #expect(bundle.principalClass == "ActionViewController")
        let info = try #require(try PropertyListSerialization.propertyList(from: bundle.infoPlist, format: nil) as? [String: Any])
        let attributes = info["NSExtension"] as? [String: Any]
        #expect(attributes?["NSExtensionPrincipalClass"] as? String == "Ext.ActionViewController")
        #expect(attributes?["NSExtensionMainStoryboard"] as? String == "MainInterface")
        #expect(plan.notCarried.contains { $0.contains("storyboard MainInterface: its initial scene (ActionViewController) is carried") })
        #expect(!plan.notCarried.contains { $0.contains("MainInterface.storyboard: storyboards and XIBs are not carried") })
    }

    @Test("the scene becomes Swift: views with their text, the outlet and both actions, registered before main")
    func sceneSource() throws {
        let directory = try TemporaryDirectory(prefix: "storyboard-import")
        defer { directory.remove() }
        let bundle = try #require(try project(directory).plan().apps.first?.extensions.first)
        let scene = try #require(bundle.storyboardScene)
        let source = StoryboardSceneSource.source(scene, targetName: "Ext")
        // The same text, compiled against the SDK and run, is WalletExtensionKitTests' GeneratedStoryboardScene.swift.
        let compiled = try String(contentsOf: BuildProducts.repositoryRoot
            .appendingPathComponent("Tests/WalletExtensionKitTests/GeneratedStoryboardScene.swift"), encoding: .utf8)
        #expect(compiled.hasSuffix(source), "generated:\n\(source)")
        for line in ["StoryboardScenes.register(ActionViewController.self, storyboard: \"MainInterface\") { controller in",
                     "view1.text = \"Agregar \\\"tarjeta\\\"\"", "view2.placeholder = \"PIN\"", "view2.isSecureTextEntry = true",
                     "view3.setTitle(\"Continuar\", for: .normal)", "view4.setTitle(\"Cancelar\", for: .normal)",
                     "controller.continueTapped(view3) }, for: .touchUpInside)", "controller.cancel(sender: view4) }, for: .touchUpInside)",
                     "controller.titleLabel = view1", "return view0"] {
            #expect(source.contains(line), "\(line) in:\n\(source)")
        }
        #expect(ExtensionEntryPoint.source(principalClass: "ActionViewController", of: bundle)
            .contains("MainActor.assumeIsolated { registerStoryboardScenes() }\nWalletExtensionKit.WalletExtension.main { ActionViewController() }"))
    }

    @Test("what is missing is named with the storyboard", arguments: [
        ("<document><scenes/></document>", "storyboard MainInterface has no initial view controller"),
        (#"<document initialViewController="x"><scenes><scene><objects><viewController id="x"/></objects></scene></scenes></document>"#,
         "storyboard MainInterface's initial view controller has no custom class"),
        (#"<document initialViewController="x"><scenes><scene><objects><navigationController id="x"/></objects></scene></scenes></document>"#,
         "storyboard MainInterface's initial view controller is a navigationController"),
        ("<document initialViewController=\"x\"><scenes>", "storyboard MainInterface: not a storyboard Interface Builder can write"),
    ])
    func missingPieces(storyboard: String, expected: String) throws {
        let directory = try TemporaryDirectory(prefix: "storyboard-import")
        defer { directory.remove() }
        #expect(throws: ImportError.self) { try project(directory, storyboard: storyboard).plan() }
        do {
            _ = try project(directory, storyboard: storyboard).plan()
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
            #expect("\(error)".hasPrefix("target Ext: "), "\(error)")
        }
    }

    @Test("selectors become calls: name:, name, nameWithLabel:; more parts are not carried")
    func selectors() {
        #expect(StoryboardSceneSource.methodCall("done:", sender: "b") == "done(b)")
        #expect(StoryboardSceneSource.methodCall("done", sender: "b") == "done()")
        #expect(StoryboardSceneSource.methodCall("doneWithSender:", sender: "b") == "done(sender: b)")
        #expect(StoryboardSceneSource.methodCall("done:forEvent:", sender: "b") == nil)
    }
}
