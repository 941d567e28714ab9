// Command pulumi-language-nodejs is the Node.js language host for an engine built from source:
// the Go module proxy does not serve Pulumi's own, so toolchain/language-hosts.cjs builds this one
// and installs it beside the CLI, where the engine finds Pulumi's. Its Run starts the program the
// way Pulumi's host does, through `@pulumi/pulumi/cmd/run` of the SDK the program resolves, with
// the `node` on PATH; its GenerateProgram (what `pulumi import` asks for) writes TypeScript with
// Pulumi's own Node.js code generator, at the engine's version. With a CLI from Pulumi's
// installer this program is never used.
//
// Usage: pulumi-language-nodejs --host-version=V [--logtostderr] [-v=N] [--tracing URL] <engine>
// (the launcher beside the CLI adds the engine's version; the rest is the engine's).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/pkg/v3/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// bailExitCode is how the SDK's cmd/run says it has already reported the program's error.
const bailExitCode = 32

func main() {
	version, engineAddress := "3.0.0", ""
	for _, arg := range os.Args[1:] {
		if v, ok := strings.CutPrefix(arg, "--host-version="); ok {
			version = v
		} else if !strings.HasPrefix(arg, "-") {
			engineAddress = arg
		}
	}
	// Without the SDK no program can run: say what to do, as Pulumi's own host does.
	cwd, err := os.Getwd()
	if err == nil {
		_, err = resolve("@pulumi/pulumi/package.json", cwd)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "It looks like the Pulumi SDK has not been installed in %s: run `npm install` there "+
			"(the program needs @pulumi/pulumi in its node_modules).\n", cwd)
		os.Exit(1)
	}

	host := &host{version: version, engineAddress: engineAddress, running: map[*exec.Cmd]struct{}{}}
	ctx, cancel := context.WithCancel(context.Background())
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "The Node.js language host could not listen: %v\n", err)
		os.Exit(1)
	}
	// The engine reads the port from the first line of stdout.
	fmt.Printf("%d\n", handle.Port)

	// The engine ends a host with SIGINT (then SIGKILL after 5 s). A killed CLI sends nothing: like
	// Pulumi's own hosts, ask the engine's health service now and then and stop once it is gone.
	interrupted := make(chan os.Signal, 1)
	signal.Notify(interrupted, os.Interrupt)
	go func() {
		<-interrupted
		cancel()
	}()
	if engineAddress != "" {
		if err := rpcutil.Healthcheck(ctx, engineAddress, healthcheckPeriod(), cancel); err != nil {
			fmt.Fprintf(os.Stderr, "Could not watch the engine at %s: %v\n", engineAddress, err)
		}
	}
	select {
	case <-ctx.Done():
	case err := <-handle.Done:
		if err != nil {
			fmt.Fprintf(os.Stderr, "The Node.js language host stopped: %v\n", err)
		}
	}
	host.cancelAll()
	os.Exit(0)
}

// healthcheckPeriod is five minutes, as Pulumi's hosts wait, unless the tests ask for less.
func healthcheckPeriod() time.Duration {
	if ms, err := strconv.Atoi(os.Getenv("ARCGIS_ADMIN_HOST_HEALTHCHECK_MS")); err == nil && ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return 5 * time.Minute
}

// resolve finds a file of a package the way Node.js does for a package without an `exports` map
// (as @pulumi/pulumi has none): in node_modules of `from` and each folder above it; else it asks
// node itself, for layouts this walk does not know.
func resolve(file, from string) (string, error) {
	for dir := from; ; dir = filepath.Dir(dir) {
		candidate := filepath.Join(dir, "node_modules", filepath.FromSlash(file))
		if info, err := os.Stat(candidate); err == nil && !info.IsDir() {
			return candidate, nil
		}
		if info, err := os.Stat(filepath.Join(candidate, "index.js")); err == nil && !info.IsDir() {
			return filepath.Join(candidate, "index.js"), nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	out, err := exec.Command("node", "-e",
		"process.stdout.write(require.resolve(process.argv[1], { paths: [process.argv[2]] }))",
		file, from).Output()
	if err != nil {
		return "", fmt.Errorf("cannot resolve %s from %s", file, from)
	}
	return string(out), nil
}

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	version       string
	engineAddress string

	mu      sync.Mutex
	running map[*exec.Cmd]struct{}
}

// cancelAll interrupts every running program as Ctrl-C would; harmless when none runs.
func (h *host) cancelAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for cmd := range h.running {
		_ = cmd.Process.Signal(os.Interrupt)
	}
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: h.version}, nil
}

func (h *host) Handshake(
	context.Context, *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("there is no `node` on PATH")
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("`node --version` failed: %w", err)
	}
	return &pulumirpc.AboutResponse{Executable: node, Version: strings.TrimSpace(string(out))}, nil
}

// Dynamic providers run in pulumi-resource-pulumi-nodejs beside the CLI; a project's resource
// plugins are installed by `pulumi plugin install`, so nothing is required from here.
func (h *host) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *host) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *host) GetProgramDependencies(
	context.Context, *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

func (h *host) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	h.cancelAll()
	return &emptypb.Empty{}, nil
}

// Run starts the program through the SDK's own entry point and answers as Pulumi's host does:
// bail when the SDK already reported the error (exit code 32), else the exit code.
func (h *host) Run(_ context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	options := info.GetOptions().AsMap()
	programDir := info.GetProgramDirectory()
	if programDir == "" {
		programDir = req.GetPwd()
	}
	runEntry, err := resolve("@pulumi/pulumi/cmd/run", programDir)
	if err != nil {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf(
			"It looks like the Pulumi SDK has not been installed in %s: run `npm install` there.", programDir)}, nil
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "Could not start the program: there is no `node` on PATH."}, nil
	}

	var args []string
	if nodeargs, ok := options["nodeargs"].(string); ok {
		args = append(args, strings.Fields(nodeargs)...)
	}
	rootDirectory := req.GetPwd()
	if info != nil {
		rootDirectory = info.GetRootDirectory()
	}
	args = append(args, runEntry,
		"--monitor="+req.GetMonitorAddress(),
		"--engine="+h.engineAddress,
		"--organization="+req.GetOrganization(),
		"--project="+req.GetProject(),
		"--root-directory="+rootDirectory,
		"--stack="+req.GetStack(),
		"--pwd="+req.GetPwd(),
	)
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	if req.GetQueryMode() {
		args = append(args, "--query-mode")
	}
	args = append(args, fmt.Sprintf("--parallel=%d", req.GetParallel()))
	entry := info.GetEntryPoint()
	if entry == "" {
		entry = req.GetProgram()
	}
	if entry == "" {
		entry = "."
	}
	args = append(args, entry)
	args = append(args, req.GetArgs()...)

	config, err := json.Marshal(nonNil(req.GetConfig()))
	if err != nil {
		return nil, err
	}
	secretKeys, err := json.Marshal(nonNilList(req.GetConfigSecretKeys()))
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(),
		"PULUMI_CONFIG="+string(config),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretKeys),
		"PULUMI_NODEJS_TYPESCRIPT="+strconv.FormatBool(options["typescript"] != false),
	)
	if tsconfig, ok := options["tsconfig"].(string); ok {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+tsconfig)
	}

	cmd := exec.Command(node, args...)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return &pulumirpc.RunResponse{Error: "Could not start the program: " + err.Error()}, nil
	}
	h.mu.Lock()
	h.running[cmd] = struct{}{}
	h.mu.Unlock()
	err = cmd.Wait()
	h.mu.Lock()
	delete(h.running, cmd)
	h.mu.Unlock()

	var exited *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}, nil
	case errors.As(err, &exited):
		status, _ := exited.Sys().(syscall.WaitStatus)
		if status.Signaled() {
			return &pulumirpc.RunResponse{Error: "Program exited after signal " + status.Signal().String()}, nil
		}
		if exited.ExitCode() == bailExitCode {
			return &pulumirpc.RunResponse{Bail: true}, nil
		}
		return &pulumirpc.RunResponse{
			Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exited.ExitCode()),
		}, nil
	default:
		return &pulumirpc.RunResponse{Error: "Could not run the program: " + err.Error()}, nil
	}
}

// nonNil keeps an empty config `{}` in the program's environment, not `null`.
func nonNil(config map[string]string) map[string]string {
	if config == nil {
		return map[string]string{}
	}
	return config
}

// nonNilList keeps an empty list `[]` in the program's environment, not `null`.
func nonNilList(keys []string) []string {
	if keys == nil {
		return []string{}
	}
	return keys
}

// GenerateProgram turns the engine's PCL (what `pulumi import` and `pulumi convert` pass) into a
// TypeScript program with Pulumi's own Node.js code generator, loading each package's schema
// through the engine's loader, as Pulumi's Node.js host does.
func (h *host) GenerateProgram(
	_ context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	parser := syntax.NewParser()
	for name, contents := range req.GetSource() {
		if err := parser.ParseFile(bytes.NewReader([]byte(contents)), name); err != nil {
			return nil, err
		}
		if parser.Diagnostics.HasErrors() {
			return &pulumirpc.GenerateProgramResponse{
				Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(parser.Diagnostics),
			}, nil
		}
	}
	options := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !req.GetStrict() {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader), options...)
	if err != nil {
		return nil, err
	}
	diagnostics := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() || program == nil {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: diagnostics}, nil
	}
	files, diags, err := nodejs.GenerateProgram(program)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{
		Source:      files,
		Diagnostics: append(diagnostics, plugin.HclDiagnosticsToRPCDiagnostics(diags)...),
	}, nil
}
