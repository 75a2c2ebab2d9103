import Foundation
import TestSupport
import Testing

/// The site's certificate renewed (issue 48 point 11). certbot renews it before its 90 days are
/// up, but nginx serves the certificate it read when it last (re)loaded: without a reload the
/// site's HTTPS fails once the first certificate expires. The docs' certbot line gives certbot a
/// `--deploy-hook`, which it keeps and runs as root after each renewal; here that command, as
/// the docs give it, runs after a new pair replaces the one at certbot's paths, and nginx then
/// serves the new one. The first pair is put back the same way, for the steps that follow.
extension PackageLifeTests {
    func theDeployHookMakesNginxServeARenewedCertificate(on host: PackageHost) throws {
        let hook: String
        do { hook = try host.readme.certbotDeployHook() } catch {
            Issue.record("\(error)")  // recorded, and the package's life goes on
            return
        }
        let live = "/etc/letsencrypt/live/" + host.siteName
        let renewed = host.staging.file("renewed-cert.pem")
        let renewedKey = host.staging.file("renewed-key.pem")
        try PackageHost.makeCertificate(renewed, key: renewedKey, for: host.siteName, scratch: host.staging.path)

        for (certificate, key, what) in [
            (renewed, renewedKey, "the renewed certificate"),
            (host.certificate, host.staging.file("site-key.pem"), "the first again"),
        ] {
            // As certbot replaces them: new files, the same names.
            for (source, name) in [(certificate, "fullchain.pem"), (key, "privkey.pem")] {
                try? FileManager.default.removeItem(atPath: live + "/" + name)
                try FileManager.default.copyItem(atPath: source, toPath: live + "/" + name)
            }
            chmod(live + "/privkey.pem", 0o600)
            let ran = try host.root(hook)
            #expect(ran.status == 0, "certbot's deploy hook '\(hook)' exited \(ran.status): \(OperatorHost.tail(ran.output))")
            // The reload returns once it has signalled nginx's master; the new workers come soon after.
            let client = SiteClient(siteName: host.siteName, certificate: certificate, scratch: host.staging.path)
            let answer = client.waitForOK("/wakeup/health", timeout: 20)
            #expect(answer.status == 200, "after certbot's deploy hook '\(hook)' nginx does not serve \(what): \(answer)")
        }
    }
}
