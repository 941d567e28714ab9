// Command sdkgen writes a language SDK of the pulumi-arcgis-admin provider from its schema, with
// Pulumi's own code generators (github.com/pulumi/pulumi/pkg/v3/codegen) at the version of the
// engine that scripts/engine.cjs builds. It does what `pulumi package gen-sdk` does, without the
// language hosts that command needs.
//
// Usage: sdkgen <python|go|nodejs> <schema.json> <output folder>
//
// The schema may name no other package: every reference is local, so the loader refuses any load.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// The tool name the generators write into each file's header.
const tool = "pulumi-arcgis-admin sdkgen"

// noPackages refuses every package load: the schema is self-contained.
type noPackages struct{}

var errExternal = errors.New("the schema refers to another package; sdkgen loads none")

func (noPackages) LoadPackage(string, *semver.Version) (*schema.Package, error) {
	return nil, errExternal
}

func (noPackages) LoadPackageV2(context.Context, *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, errExternal
}

func (noPackages) LoadPackageReference(string, *semver.Version) (schema.PackageReference, error) {
	return nil, errExternal
}

func (noPackages) LoadPackageReferenceV2(
	context.Context, *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, errExternal
}

func generate(language string, pkg *schema.Package) (map[string][]byte, error) {
	switch language {
	case "python":
		return python.GeneratePackage(tool, pkg, map[string][]byte{}, noPackages{})
	case "go":
		return gogen.GeneratePackage(tool, pkg, map[string]string{})
	case "nodejs":
		return nodejs.GeneratePackage(tool, pkg, map[string][]byte{}, nil, false, noPackages{})
	default:
		return nil, fmt.Errorf("unknown language %q (python, go or nodejs)", language)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return errors.New("usage: sdkgen <python|go|nodejs> <schema.json> <output folder>")
	}
	language, schemaFile, out := args[0], args[1], args[2]
	text, err := os.ReadFile(schemaFile)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaFile, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	if err != nil {
		return fmt.Errorf("%s: %w", schemaFile, err)
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s is not a valid schema: %s", schemaFile, diags.Error())
	}
	files, err := generate(language, pkg)
	if err != nil {
		return err
	}
	for name, content := range files {
		file := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(file, content, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("%d files written to %s\n", len(files), out)
	return nil
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "sdkgen:", err)
		os.Exit(1)
	}
}
