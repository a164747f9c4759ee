// Command pulumi-language-nodejs is the forge project's shim around an older official Node.js
// language host (see scripts/install-pulumi.sh). It starts that host (../libexec/pulumi-language-nodejs
// next to this executable, or $FORGE_PULUMI_NODEJS_HOST) with the same arguments, forwards every gRPC
// call to it unchanged, and implements LanguageRuntime.RunPlugin, which that host predates: Node policy
// packs run @pulumi/pulumi/cmd/run-policy-pack, other Node plugins @pulumi/pulumi/cmd/run-plugin.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/google/shlex"
	sdk "github.com/pulumi/pulumi/sdk/v3"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
)

const (
	runPluginMethod = "/pulumirpc.LanguageRuntime/RunPlugin"
	maxMsg          = 400 * 1024 * 1024
)

// frame carries a message's bytes through the proxy undecoded.
type frame struct{ b []byte }

// codec passes frames through and (un)marshals real protobuf messages (RunPlugin's).
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	if f, ok := v.(*frame); ok {
		return f.b, nil
	}
	return proto.Marshal(v.(proto.Message))
}

func (codec) Unmarshal(data []byte, v any) error {
	if f, ok := v.(*frame); ok {
		f.b = append([]byte(nil), data...)
		return nil
	}
	return proto.Unmarshal(data, v.(proto.Message))
}

func (codec) Name() string { return "proto" }

func fatal(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "pulumi-language-nodejs (forge shim): "+format+"\n", args...)
	os.Exit(1)
}

func realHost() string {
	if p := os.Getenv("FORGE_PULUMI_NODEJS_HOST"); p != "" {
		return p
	}
	self, err := os.Executable()
	if err != nil {
		fatal("cannot locate myself: %v", err)
	}
	if resolved, err := filepath.EvalSymlinks(self); err == nil {
		self = resolved
	}
	return filepath.Join(filepath.Dir(self), "..", "libexec", "pulumi-language-nodejs")
}

func main() {
	host := realHost()
	for _, a := range os.Args[1:] {
		switch a {
		case "-h", "-help", "--help", "-version", "--version":
			if err := syscall.Exec(host, append([]string{host}, os.Args[1:]...), os.Environ()); err != nil {
				fatal("exec %s: %v", host, err)
			}
		}
	}

	child := exec.Command(host, os.Args[1:]...)
	child.Stderr = os.Stderr
	child.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	childOut, err := child.StdoutPipe()
	if err != nil {
		fatal("%v", err)
	}
	if err := child.Start(); err != nil {
		fatal("start %s: %v", host, err)
	}
	out := bufio.NewReader(childOut)
	line, err := out.ReadString('\n')
	port, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		_ = child.Process.Kill()
		fatal("%s did not report its port (read %q: %v)", host, line, err)
	}

	conn, err := grpc.NewClient(fmt.Sprintf("127.0.0.1:%d", port),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.ForceCodec(codec{}),
			grpc.MaxCallRecvMsgSize(maxMsg), grpc.MaxCallSendMsgSize(maxMsg)))
	if err != nil {
		fatal("dial %s: %v", host, err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fatal("listen: %v", err)
	}
	srv := grpc.NewServer(grpc.ForceServerCodec(codec{}), grpc.UnknownServiceHandler(forward(conn)),
		grpc.MaxRecvMsgSize(maxMsg), grpc.MaxSendMsgSize(maxMsg))

	// The engine reads our port from the first line of stdout; the host's later output follows.
	fmt.Printf("%d\n", lis.Addr().(*net.TCPAddr).Port)
	go func() { _, _ = io.Copy(os.Stdout, out) }()

	go func() {
		err := child.Wait()
		code := 0
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			code = exitErr.ExitCode()
		} else if err != nil {
			code = 1
		}
		srv.Stop()
		os.Exit(code)
	}()
	go func() {
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
		s := <-sigs
		_ = child.Process.Signal(s)
		os.Exit(0)
	}()

	if err := srv.Serve(lis); err != nil {
		_ = child.Process.Kill()
		fatal("serve: %v", err)
	}
}

// forward proxies one call (unary or streaming) to the real host, byte for byte.
func forward(conn *grpc.ClientConn) grpc.StreamHandler {
	return func(_ any, ss grpc.ServerStream) error {
		method, _ := grpc.MethodFromServerStream(ss)
		if method == runPluginMethod {
			return runPlugin(ss)
		}
		ctx, cancel := context.WithCancel(ss.Context())
		defer cancel()
		if md, ok := metadata.FromIncomingContext(ss.Context()); ok {
			ctx = metadata.NewOutgoingContext(ctx, md.Copy())
		}
		cs, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}, method)
		if err != nil {
			return err
		}
		go func() {
			for {
				f := &frame{}
				if err := ss.RecvMsg(f); err != nil {
					if errors.Is(err, io.EOF) {
						_ = cs.CloseSend()
					} else {
						cancel()
					}
					return
				}
				if err := cs.SendMsg(f); err != nil {
					return
				}
			}
		}()
		if md, err := cs.Header(); err == nil && len(md) > 0 {
			_ = ss.SendHeader(md)
		}
		for {
			f := &frame{}
			if err := cs.RecvMsg(f); err != nil {
				ss.SetTrailer(cs.Trailer())
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
			if err := ss.SendMsg(f); err != nil {
				return err
			}
		}
	}
}

type runPluginServer struct{ grpc.ServerStream }

func (s runPluginServer) Send(m *pulumirpc.RunPluginResponse) error { return s.SendMsg(m) }

// runPlugin starts a Node plugin or policy pack and streams its output back to the engine.
func runPlugin(ss grpc.ServerStream) error {
	req := &pulumirpc.RunPluginRequest{}
	if err := ss.RecvMsg(req); err != nil {
		return err
	}
	server := runPluginServer{ss}
	ctx := ss.Context()
	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()

	node, err := exec.LookPath("node")
	if err != nil {
		return err
	}
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetProgram() //nolint:staticcheck // older engines
	}
	var opts map[string]any
	if o := req.GetInfo().GetOptions(); o != nil {
		opts = o.AsMap()
	}
	env := append(os.Environ(), req.GetEnv()...)
	if ts, ok := opts["typescript"].(bool); !ok || ts {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if p, ok := opts["tsconfig"].(string); ok && p != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+p)
	}
	var args []string
	if s, ok := opts["nodeargs"].(string); ok && s != "" {
		if args, err = shlex.Split(s); err != nil {
			return err
		}
	}
	analyzer := req.GetKind() == "analyzer"
	module := "@pulumi/pulumi/cmd/run-plugin"
	if analyzer {
		module = "@pulumi/pulumi/cmd/run-policy-pack"
	}
	resolve := exec.Command(node, "-e",
		"process.stdout.write(require.resolve(process.argv[1], { paths: [process.argv[2]] }))", module, dir)
	resolve.Dir = dir
	resolved, err := resolve.Output()
	if err != nil {
		return fmt.Errorf("cannot find %s from %s (is @pulumi/pulumi installed there?): %w", module, dir, err)
	}
	args = append(args, string(resolved))
	if analyzer {
		args = append(append(args, req.GetArgs()...), dir)
	} else {
		args = append(append(args, dir), req.GetArgs()...)
	}

	// A policy pack learns the stack's configuration through a proxy that the engine configures first.
	var policy *sdk.PolicyProxy
	if analyzer {
		if policy, stdout, err = sdk.NewPolicyProxy(ctx, stdout); err != nil {
			return fmt.Errorf("could not start policy pack proxy: %w", err)
		}
		cfg, err := policy.AwaitConfiguration(ctx)
		if err != nil {
			return fmt.Errorf("could not get stack configuration: %w", err)
		}
		if cfg != nil {
			add := func(k, v string) {
				if v != "" {
					env = append(env, k+"="+v)
				}
			}
			add("PULUMI_NODEJS_ORGANIZATION", cfg.GetOrganization())
			add("PULUMI_NODEJS_PROJECT", cfg.GetProject())
			add("PULUMI_NODEJS_STACK", cfg.GetStack())
			add("PULUMI_NODEJS_DRY_RUN", strconv.FormatBool(cfg.GetDryRun()))
			if c := cfg.GetConfig(); c != nil {
				b, err := json.Marshal(c)
				if err != nil {
					return err
				}
				add("PULUMI_CONFIG", string(b))
			}
		}
	}

	cmd := exec.Command(node, args...)
	cmd.Dir = req.GetPwd()
	if analyzer || cmd.Dir == "" {
		cmd.Dir = dir
	}
	cmd.Env = env
	cmd.Stdout = struct{ io.Writer }{stdout}
	cmd.Stderr = struct{ io.Writer }{stderr}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("could not start %s: %w", node, err)
	}
	if policy != nil {
		err = policy.Attach(ctx, cmd)
	} else {
		err = cmd.Wait()
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		_ = closer.Close()
		return server.Send(&pulumirpc.RunPluginResponse{
			Output: &pulumirpc.RunPluginResponse_Exitcode{Exitcode: int32(exitErr.ExitCode())},
		})
	} else if err != nil {
		return err
	}
	return closer.Close()
}
