package main

import (
	"fmt"
	"os"

	"golang.org/x/sys/windows/svc"
)

// runAsService runs the exporter as a Windows service when the service control
// manager started the process (sc.exe create ... binPath= "...exe --flags"), and
// reports whether it did. The flags come from binPath, as on a command line.
func runAsService(args []string) (int, bool) {
	isService, err := svc.IsWindowsService()
	if err != nil || !isService {
		return 0, false
	}
	s := &service{args: args}
	if err := svc.Run(exporterName, s); err != nil {
		fmt.Fprintf(os.Stderr, "%s: running as a Windows service: %v\n", exporterName, err)
		return 1, true
	}
	return s.code, true
}

type service struct {
	args []string
	code int
}

// Execute answers the service manager: running once the exporter has started,
// stopping (requests in flight may finish) on Stop or Shutdown. An exporter that
// exits on its own (a bad modules file, a port in use) stops the service with its
// exit code as the service-specific code.
func (s *service) Execute(_ []string, req <-chan svc.ChangeRequest, status chan<- svc.Status) (bool, uint32) {
	status <- svc.Status{State: svc.StartPending}
	stop := make(chan struct{})
	done := make(chan int, 1)
	go func() { done <- runUntil(s.args, stop) }()
	status <- svc.Status{State: svc.Running, Accepts: svc.AcceptStop | svc.AcceptShutdown}
	for {
		select {
		case s.code = <-done:
			status <- svc.Status{State: svc.StopPending}
			return s.code != 0, uint32(s.code)
		case r := <-req:
			switch r.Cmd {
			case svc.Interrogate:
				status <- r.CurrentStatus
			case svc.Stop, svc.Shutdown:
				status <- svc.Status{State: svc.StopPending}
				close(stop)
				s.code = <-done
				return false, 0
			}
		}
	}
}
