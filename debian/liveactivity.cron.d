# /etc/cron.d/liveactivity, from the liveactivity package: the responder at boot and the sweep
# every minute on a host without systemd (the hand-made deployment's cron/liveactivity.crontab,
# with the package's paths). Each line stands down, doing nothing and saying nothing:
# - where systemd runs (/run/systemd/system exists): the package's units do the same work;
# - once the package is removed and only its settings are left (Debian policy 9.5): the
#   programs are gone.
# Lines go to /var/log/liveactivity/ (2750 root:adm), rotated by /etc/logrotate.d/liveactivity.
# Only root's lines write there, so no other user can plant a link that root would follow
# (SPEC 7); each program itself runs as its own user.

# The responder at boot. spawn-fcgi starts as root, creates the socket for nginx (owner www-data,
# group liveactivity, 0660) and runs the responder as www-data in group liveactivity; env -i: it
# gets the name of its settings file and nothing of the environment of whoever started it; -n:
# spawn-fcgi becomes the responder, so its lines reach fcgi.log. --supervise starts the
# responder again whenever it exits; the pid file names that supervisor:
#   kill -HUP $(cat /run/liveactivity-fcgi.pid)    restart the responder
#   kill -TERM $(cat /run/liveactivity-fcgi.pid)   stop it; start it again with
#   sh -c "$(sed -n 's/^@reboot root //p' /etc/cron.d/liveactivity)"
@reboot root [ -x /usr/bin/liveactivity-fcgi ] && [ ! -d /run/systemd/system ] || exit 0; env -i LIVEACTIVITY_CONFIG=/etc/liveactivity/liveactivity.conf /usr/bin/spawn-fcgi -n -s /run/liveactivity-fcgi.sock -M 0660 -U www-data -G liveactivity -u www-data -g liveactivity -d /var/lib/liveactivity -- /usr/bin/liveactivity-fcgi --supervise --workers 64 >>/var/log/liveactivity/fcgi.log 2>&1 & echo $! >/run/liveactivity-fcgi.pid

# The sweep every minute, as the only user that can read the APNs key (setpriv: no login
# session, no PAM lines a minute; --reset-env: that user's HOME, where libpq finds its password
# file), its lines appended by root's shell. Overlapping runs are
# harmless: the sweep takes a lock in its own folder and a second one exits at once.
* * * * * root [ -x /usr/bin/liveactivity-sweep ] && [ ! -d /run/systemd/system ] || exit 0; setpriv --reuid=liveactivity --regid=liveactivity --init-groups --reset-env /usr/bin/env LIVEACTIVITY_CONFIG=/etc/liveactivity/liveactivity.conf /usr/bin/liveactivity-sweep >>/var/log/liveactivity/sweep.log 2>&1

# The logs' size cap (maxsize 10M in /etc/logrotate.d/liveactivity) checked every hour: the
# distribution runs logrotate once a day.
17 * * * * root [ -x /usr/bin/liveactivity-sweep ] && [ -x /usr/sbin/logrotate ] && [ ! -d /run/systemd/system ] || exit 0; /usr/sbin/logrotate /etc/logrotate.d/liveactivity
