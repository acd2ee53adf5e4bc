package main

import (
	"os"

	"github.com/gopcp/gopcp/internal/sdnotify"
)

// notifyServiceManager sends msg to the service manager's socket
// ($NOTIFY_SOCKET), as PCP's daemons do under -N. Without the variable
// it does nothing: the logger was not started by systemd with
// Type=notify. A failure is not the logger's to report, as in libpcp.
func notifyServiceManager(msg string) {
	sdnotify.Notify(os.Getenv("NOTIFY_SOCKET"), msg)
}
