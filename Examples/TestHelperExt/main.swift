/// TestHelperExt: a non-UI Wallet extension that misbehaves on purpose, one named mode per
/// way an extension can fail, so that the host's handling of each can be tested with a real
/// process (the idea comes from hashicorp/go-plugin's helper process).
///
/// Principal class: `TestHelperExt.TestHelperHandler`.
///
/// The mode is read on EVERY call (and once at launch) from the file `TestHelperMode` in the
/// current directory, which the host sets to the `.appex`. The file holds `MODE [ARG]`;
/// no file means `normal`. An unknown mode is logged on stdout and treated as `normal`.
///
/// | mode | behaviour |
/// |---|---|
/// | `normal` | status: entries available for the iPhone and the watch, no authentication (the app has no UI extension). passEntries / remotePassEntries: one valid entry (`helper-card-0001`, 1536 x 969 art, ECC_V2) whose cardDetails hold `instanceCalls` (calls made on this handler instance: always "1", since every call gets a fresh instance) and `globalCalls` (calls made in this process so far: grows). generateAddPaymentPassRequest: a valid ECC_V2 request (65-byte ephemeral key starting 0x04). |
/// | `slow-status MS` | status sleeps MS milliseconds, then answers normally. |
/// | `slow-launch MS` | sleeps MS milliseconds before the main loop starts (before the handshake). |
/// | `slow-entries MS` | passEntries and remotePassEntries sleep MS milliseconds, then answer normally. |
/// | `hang` | never completes any call (the reader still handles cancel and exit). |
/// | `crash-signal` | status kills the process with SIGSEGV (default action, no crash handler). |
/// | `crash-fatal` | status calls `fatalError` (the Swift runtime traps: SIGILL or SIGTRAP). |
/// | `allocate-mb N` | status mallocs one block of N MB, writes every page, holds it for the life of the process, then answers normally. |
/// | `allocate-small-mb N` | the same in 64 KiB blocks. At the RLIMIT_DATA limit malloc fails: the helper prints `Fatal error: failed to allocate N bytes` and aborts (SIGABRT). |
/// | `allocate-on-request-mb N` | generateAddPaymentPassRequest allocates N MB in one block first (a memory death in the middle of the add-card flow). |
/// | `garbage-line` | every call first writes the line `this is not JSON {{{` on fd 4, then answers normally. |
/// | `garbage-instead` | every call writes the line `this is not JSON {{{` on fd 4 instead of its answer, and never completes. |
/// | `oversized-line` | every call first writes a 17 MiB line (no JSON) on fd 4, then answers normally. |
/// | `double-complete` | every call completes twice: two responses with the same id on the wire. |
/// | `late-complete MS` | every call sleeps MS milliseconds, then sends its real response even if the host cancelled the call meanwhile. |
/// | `stdout-noise` | every call prints three lines on stdout (one looks like JSON-RPC) and three on stderr, then answers normally. |
/// | `fork-grandchild` | the first call forks a grandchild that sleeps 30 s holding every inherited descriptor (fd 3 and 4 included); the extension process then exits with status 1 without answering. |
/// | `ignore-exit` | ignores SIGTERM, the `exit` notification and end of input on fd 3 (from launch, when the file says so then, and from each call on); only SIGKILL ends it. Calls answer normally. |
/// | `nil-request` | generateAddPaymentPassRequest completes with nil (`"result": null`). |
/// | `bad-request` | generateAddPaymentPassRequest omits `ephemeralPublicKey` for its ECC_V2 card. |
/// | `leak-kb N` | every call allocates N KB, writes every page and keeps it for the life of the process (a leak for `wallet-host stress` to find). |
/// | `churn-kb N` | every call allocates N KB, writes every page and frees it (steady memory: no leak). |
/// | `wrong-shape` | status answers `{"passEntriesAvailable":"yes","remotePassEntriesAvailable":1,"requiresAuthentication":null}`, written raw. |
/// | `keychain-write TOKEN [GROUP]` | passEntries and remotePassEntries save TOKEN as a generic password (SecItemDelete, then SecItemAdd; in GROUP, else the default access group) and add `keychainStatus` (SecItemAdd's OSStatus) to the entry's cardDetails. |
/// | `keychain-read` | passEntries and remotePassEntries read the token back (SecItemCopyMatching) and add `keychainStatus` and, when found, `keychainToken` to the cardDetails. |
/// | `pass-library` | passEntries and remotePassEntries add `passes`: the primary account identifiers of the secure-element passes PKPassLibrary gives it, sorted, comma-separated. |
/// | `hostile-title` | its card's title is markup, `<script>` and `<img src=x onerror=...>`: a page must show it as text. |
///
/// Without WALLET_EXTENSION_PROTOCOL in the environment it prints the SDK's note and exits 2.
import WalletExtensionKit

switch HelperMode.current() {
case .slowLaunch(let milliseconds):
    Misbehaviour.sleep(milliseconds: milliseconds)
case .ignoreExit:
    Misbehaviour.ignoreExitRequests(true)
default:
    break
}

WalletExtension.main { TestHelperHandler() }
