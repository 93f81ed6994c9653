#!/usr/bin/env python3
"""Generate SkyPilot's task-YAML JSON schema (and the resources/service
sub-schemas) from SkyPilot's own ``sky/utils/schemas.py``, without
installing SkyPilot.

How it works: the source of ``sky/utils/schemas.py`` is read (from a file, or
with ``git show <commit>:sky/utils/schemas.py`` from a SkyPilot git
directory) and executed as module ``sky.utils.schemas`` with a fake ``sky``
package in ``sys.modules``. The fake package provides only the names
schemas.py reads from other SkyPilot modules:

* ``sky.skylet.constants``: values copied from SkyPilot's
  ``sky/skylet/constants.py`` (the stored version at commit
  0015e8ecf7387add6114d98bd9b38cbb480d605f): ALL_CLOUDS, STORAGE_ONLY_CLOUDS,
  TIME_PATTERN, MEMORY_SIZE_PATTERN (both built the same way as upstream),
  SUB_PATH_PATTERN, MIN_PRIORITY/MAX_PRIORITY, OVERRIDEABLE_CONFIG_KEYS_IN_TASK
  and ENV_VAR_IS_SKYPILOT_SERVER.
* ``sky.skylet.autostop_lib.AutostopWaitFor``: the upstream enum values
  (jobs_and_ssh, jobs, none).
* ``sky.serve.load_balancing_policies.LB_POLICIES`` and
  ``sky.serve.spot_placer.SPOT_PLACERS``: the upstream registry keys
  (round_robin, least_load, instance_aware_least_load; dynamic_fallback).
* ``sky.utils.kubernetes_enums`` and ``sky.server.daemons``: placeholders
  whose values start with ``STUB_``. They only feed parts of the global
  config schema that get_task_schema() filters out; the script checks that no
  ``STUB_`` value reaches any emitted schema and fails otherwise.

``sky.data.storage`` and ``sky.utils.volume`` are not stubbed: only
get_storage_schema()/get_volume_schema() import them, and neither is emitted.

The environment variable IS_SKYPILOT_SERVER is removed before the schemas are
built, so ``_allow_additional_properties()`` takes SkyPilot's client-side
branch (True): plugin-extensible objects (job_recovery, the task ``config:``
block, kubernetes/slurm config) accept unknown keys, as a SkyPilot client
does. Everything else keeps upstream's ``additionalProperties: False``.

Written files (json.dumps(..., sort_keys=True, indent=1) plus a newline):

* task.schema.json      - get_task_schema()
* resources.schema.json - get_resources_schema()  (SkyPilot validates the
                          task's ``resources:`` value with this, separately)
* service.schema.json   - get_service_schema()    (likewise for ``service:``)

The schemas use SkyPilot's custom keyword ``case_insensitive_enum`` (and, in
parts of the config schema, ``case_sensitive_enum``); SkyPilot validates with
jsonschema.Draft7Validator extended with ``case_insensitive_enum``
(sky/utils/validator.py). Stock validators ignore unknown keywords.

Usage:
  extract_task_schema.py --schemas-py PATH/TO/schemas.py [--out-dir DIR]
  extract_task_schema.py --git-dir SKYPILOT.git [--commit REV] [--out-dir DIR]
"""
import argparse
import enum
import json
import os
import subprocess
import sys
import types

STUB_MARK = 'STUB_'


def _constants_module() -> types.ModuleType:
    m = types.ModuleType('sky.skylet.constants')
    m.ENV_VAR_IS_SKYPILOT_SERVER = 'IS_SKYPILOT_SERVER'
    m.ALL_CLOUDS = ('aws', 'azure', 'gcp', 'ibm', 'lambda', 'scp', 'oci',
                    'kubernetes', 'runpod', 'vast', 'vsphere', 'cudo',
                    'fluidstack', 'paperspace', 'primeintellect', 'do',
                    'nebius', 'ssh', 'slurm', 'hyperbolic', 'seeweb',
                    'shadeform', 'yotta', 'mithril', 'verda')
    m.STORAGE_ONLY_CLOUDS = ['cloudflare', 'coreweave', 'vastdata',
                             'huggingface']

    def make_time_pattern(units):
        unit_pattern = '|'.join([u.lower() for u in units] +
                                [u.upper() for u in units])
        return f'^[0-9]+({unit_pattern})?$'

    m.TIME_UNITS = {'m': 1, 'h': 60, 'd': 24 * 60, 'w': 7 * 24 * 60}
    m.TIME_PATTERN = make_time_pattern(m.TIME_UNITS)
    units = ['kb', 'ki', 'mb', 'mi', 'gb', 'gi', 'tb', 'ti', 'pb', 'pi']
    m.MEMORY_SIZE_PATTERN = (
        '^[0-9]+('
        f'{"|".join([u.lower() for u in units])}|'
        f'{"|".join([u.upper() for u in units])}|'
        f'{"|".join([u[0].upper() + u[1:] for u in units if len(u) > 1])}'
        ')?$')
    m.SUB_PATH_PATTERN = '^[a-zA-Z0-9._-][a-zA-Z0-9./_-]*$'
    m.MIN_PRIORITY = -1000
    m.MAX_PRIORITY = 1000
    m.OVERRIDEABLE_CONFIG_KEYS_IN_TASK = [
        ('docker', 'run_options'),
        ('nvidia_gpus', 'disable_ecc'),
        ('ssh', 'custom_metadata'),
        ('ssh', 'pod_config'),
        ('ssh', 'provision_timeout'),
        ('kubernetes', 'custom_metadata'),
        ('kubernetes', 'pod_config'),
        ('kubernetes', 'provision_timeout'),
        ('kubernetes', 'dws'),
        ('kubernetes', 'kueue'),
        ('kubernetes', 'quota'),
        ('kubernetes', 'remote_identity'),
        ('kubernetes', 'enable_docker'),
        ('kubernetes', 'set_pod_resource_limits'),
        ('azure', 'remote_identity'),
        ('azure', 'vpc_name'),
        ('gcp', 'vpc_name'),
        ('gcp', 'subnet_names'),
        ('gcp', 'managed_instance_group'),
        ('gcp', 'enable_gvnic'),
        ('gcp', 'enable_gpu_direct'),
        ('gcp', 'placement_policy'),
        ('vast', 'datacenter_only'),
        ('vast', 'create_instance_kwargs'),
        ('slurm', 'sbatch_options'),
        ('slurm', 'quota'),
        ('slurm', 'cpu_partition'),
        ('active_workspace',),
    ]
    return m


def _install_fake_sky() -> None:
    """Put a minimal fake `sky` package into sys.modules."""
    mods = {}
    for name in ('sky', 'sky.skylet', 'sky.utils', 'sky.server', 'sky.serve'):
        pkg = types.ModuleType(name)
        pkg.__path__ = []  # mark as package
        mods[name] = pkg

    mods['sky.skylet.constants'] = _constants_module()

    autostop_lib = types.ModuleType('sky.skylet.autostop_lib')

    class AutostopWaitFor(enum.Enum):
        JOBS_AND_SSH = 'jobs_and_ssh'
        JOBS = 'jobs'
        NONE = 'none'

        @classmethod
        def supported_modes(cls):
            return [mode.value for mode in cls]

    autostop_lib.AutostopWaitFor = AutostopWaitFor
    mods['sky.skylet.autostop_lib'] = autostop_lib

    k8s = types.ModuleType('sky.utils.kubernetes_enums')
    for enum_name in ('KubernetesNetworkingMode', 'KubernetesPortMode',
                      'KubernetesAutoscalerType', 'KubernetesRdmaMode'):
        setattr(k8s, enum_name,
                enum.Enum(enum_name, {'A': f'{STUB_MARK}{enum_name}'}))
    mods['sky.utils.kubernetes_enums'] = k8s

    daemons = types.ModuleType('sky.server.daemons')
    daemons.INTERNAL_REQUEST_DAEMONS = [
        types.SimpleNamespace(id=f'{STUB_MARK}daemon')
    ]
    mods['sky.server.daemons'] = daemons

    lb = types.ModuleType('sky.serve.load_balancing_policies')
    lb.LB_POLICIES = dict.fromkeys(
        ['round_robin', 'least_load', 'instance_aware_least_load'])
    mods['sky.serve.load_balancing_policies'] = lb

    sp = types.ModuleType('sky.serve.spot_placer')
    sp.SPOT_PLACERS = dict.fromkeys(['dynamic_fallback'])
    mods['sky.serve.spot_placer'] = sp

    # Attach submodules to their parents so `from sky.x import y` works.
    for name, mod in mods.items():
        if '.' in name:
            parent, child = name.rsplit('.', 1)
            setattr(mods[parent], child, mod)
    sys.modules.update(mods)


def _read_source(args) -> str:
    if args.schemas_py:
        with open(args.schemas_py, encoding='utf-8') as f:
            return f.read()
    return subprocess.run(
        ['git', '-C', args.git_dir, 'show',
         f'{args.commit}:sky/utils/schemas.py'],
        check=True, capture_output=True, text=True).stdout


def build(source: str) -> dict:
    os.environ.pop('IS_SKYPILOT_SERVER', None)  # client-side branch
    _install_fake_sky()
    module = types.ModuleType('sky.utils.schemas')
    module.__file__ = 'sky/utils/schemas.py'
    sys.modules['sky.utils.schemas'] = module
    exec(compile(source, 'sky/utils/schemas.py', 'exec'), module.__dict__)  # pylint: disable=exec-used
    return {
        'task.schema.json': module.get_task_schema(),
        'resources.schema.json': module.get_resources_schema(),
        'service.schema.json': module.get_service_schema(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument('--schemas-py', help='path to a copy of sky/utils/schemas.py')
    src.add_argument('--git-dir', help='SkyPilot git directory (bare is fine)')
    parser.add_argument('--commit', default='HEAD',
                        help='revision for --git-dir (default HEAD)')
    parser.add_argument('--out-dir', default=os.path.dirname(
        os.path.abspath(__file__)))
    args = parser.parse_args()

    schemas = build(_read_source(args))
    for filename, schema in schemas.items():
        text = json.dumps(schema, sort_keys=True, indent=1)
        if STUB_MARK in text:
            print(f'error: a stubbed value reached {filename}', file=sys.stderr)
            return 1
        path = os.path.join(args.out_dir, filename)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text + '\n')
        print(f'wrote {path} ({len(text) + 1} bytes)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
