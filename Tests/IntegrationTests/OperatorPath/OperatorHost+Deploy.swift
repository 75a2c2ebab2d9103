import Foundation
import TestSupport

/// docs/INSTALL.md's steps as written, with only the substitutions a test host needs, each
/// asserted to apply: the runtime packages checked to be there (`dpkg -s`) instead of installed
/// (apt would upgrade the machine's), the test's own build instead of `swift build`, the stand-in instead of
/// Apple (two settings appended after the configuration step), a self-signed pair at certbot's
/// paths instead of certbot's block (a test host has no public name for Let's Encrypt to check).
extension OperatorHost {
    static let buildLine = "scripts/install-deps --build-only && swift build -c release"

    /// Steps 1 to 5: every `sh` block of the section in order, except the systemd alternative
    /// of step 4 (this host runs cron's way), certbot's block (a self-signed pair where it puts
    /// the certificate instead) and the check of step 6 (`checkAsTheReadmeSays`).
    func deployAsTheReadmeSays() throws {
        // The Debian way without systemd: step 5 then reloads it, as the document says.
        try startNginx()
        var certified = false
        for block in readme.blocks {
            if block.text.contains("systemctl enable") || block.text.contains("curl ") { continue }
            if block.text.contains("certbot certonly --webroot -w /var/www/html -d \(siteName)") {
                try installSiteCertificate()
                certified = true
                continue
            }
            if block.text.contains("sites-available/liveactivity") && !certified {
                throw SocketError("docs/INSTALL.md's nginx step comes before the site's certificate is made")
            }
            try run(block, text: try text(of: block))
            if block.text.contains("liveactivity.env <<") { try pointConfigurationAtStandIn() }
            if block.text.contains("nginx -s reload") { try waitForTheSite() }
        }
    }

    /// `nginx -s reload` returns once it has signalled the master, before the master has read the
    /// new site and bound port 443; an operator types step 6 later than a test does. Bounded.
    private func waitForTheSite() throws {
        guard waitUntil(timeout: 20, { (try? RawSocket(port: 443, timeout: 1)) != nil }) else {
            throw SocketError("nginx did not listen on port 443 within 20 s of step 5's reload")
        }
    }

    /// A block's text with the test's substitutions.
    func text(of block: ReadmeDeployment.Block) throws -> String {
        guard block.step == 1 else { return block.text }
        if block.text.hasPrefix("apt install ") {
            return try substituting("apt install ", with: "dpkg -s ", in: block.text, what: "step 1's runtime packages")
        }
        return try substituting(Self.buildLine, with: ": built by the test", in: block.text, what: "step 1's build")
    }

    /// Step 1 again: the binaries installed over the running ones, as an upgrade does.
    func installBinariesAgain() throws {
        let block = try readme.block(containing: "/opt/liveactivity/bin/")
        try run(block, text: try text(of: block))
    }

    /// Step 6: docs/INSTALL.md's check command, with curl trusting the test's self-signed certificate.
    func checkAsTheReadmeSays() throws -> HostOutput {
        let block = try readme.block(containing: "curl ")
        var environment = HostCommand.rootEnvironment
        environment["CURL_CA_BUNDLE"] = siteCertificate
        return try HostCommand.shell(block.text, in: staging.path, environment: environment, scratch: staging.path)
    }

    /// docs/INSTALL.md's start line of step 4 (`sh -c "$(sed ... /etc/cron.d/liveactivity)"`), typed by root.
    func startAsTheReadmeSays() throws -> HostOutput {
        try root(readme.line(containing: "sed -n 's/^@reboot root //p'"))
    }

    /// The site's certificate and key where certbot puts them for the site's name.
    private func installSiteCertificate() throws {
        let folder = "/etc/letsencrypt/live/" + siteName
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: siteCertificate, toPath: folder + "/fullchain.pem")
        try FileManager.default.copyItem(atPath: staging.file("site-key.pem"), toPath: folder + "/privkey.pem")
        chmod(folder + "/privkey.pem", 0o600)
    }

    /// `APNS_HOST` and `APNS_CA_FILE` (docs/INSTALL.md's Configuration table) appended to the file step 3
    /// wrote: pushes go to the stand-in, whose certificate the sweep's user can read.
    private func pointConfigurationAtStandIn() throws {
        guard FileManager.default.fileExists(atPath: configPath) else {
            throw SocketError("docs/INSTALL.md step 3 did not write \(configPath)")
        }
        let caPath = "/etc/liveactivity/apns-standin-ca.pem"
        try FileManager.default.copyItem(atPath: standIn.certificatePath, toPath: caPath)
        chmod(caPath, 0o644)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: configPath))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("APNS_HOST=\(standIn.baseURL)\nAPNS_CA_FILE=\(caPath)\n".utf8))
        try handle.close()
    }
}
