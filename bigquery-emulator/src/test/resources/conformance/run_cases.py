"""Runs the conformance cases with Google's official Python client and prints what it observed.

Usage: run_cases.py CASES_JSON GRPC_ADDRESS REST_URL TABLE_PREFIX > observations.json

The Java test (ConformanceTest) runs the same cases with the official Java client and compares both
clients' observations with the cases' expectations, so one comparison judges both.
"""
import json
import queue
import sys
import urllib.request

import grpc
from google.api_core import exceptions as api_exceptions
from google.cloud.bigquery_storage_v1 import BigQueryWriteClient, types
from google.cloud.bigquery_storage_v1.services.big_query_write.transports import BigQueryWriteGrpcTransport
from google.protobuf import descriptor_pb2

PROJECT = "conformance"
DATASET = "cases"
PROTO_TYPES = {
    "int64": descriptor_pb2.FieldDescriptorProto.TYPE_INT64,
    "string": descriptor_pb2.FieldDescriptorProto.TYPE_STRING,
}


def table_path(prefix, case_no, table):
    return f"projects/{PROJECT}/datasets/{DATASET}/tables/{prefix}{case_no}_{table}"


def create_table(rest_url, path, columns):
    table = path.rsplit("/", 1)[1]
    body = json.dumps({
        "tableReference": {"projectId": PROJECT, "datasetId": DATASET, "tableId": table},
        "schema": {"fields": columns},
    }).encode()
    request = urllib.request.Request(
        f"{rest_url}/bigquery/v2/projects/{PROJECT}/datasets/{DATASET}/tables", data=body, method="POST",
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        if response.status != 200:
            raise RuntimeError(f"creating {table}: HTTP {response.status}")


def descriptor(fields):
    message = descriptor_pb2.DescriptorProto(name="Row")
    for f in fields:
        message.field.add(
            name=f["name"], number=f["number"], type=PROTO_TYPES[f["type"]],
            label=(descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED if f.get("repeated")
                   else descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL))
    return message


def storage_error_of(details):
    for detail in details or []:
        if hasattr(detail, "Is") and detail.Is(types.StorageError.pb().DESCRIPTOR):
            error = types.StorageError.pb()()
            detail.Unpack(error)
            return types.StorageError.StorageErrorCode(error.code).name
    return None


def failed(error):
    code = error.grpc_status_code.name if error.grpc_status_code is not None else "UNKNOWN"
    return {"code": code, "storage_error": storage_error_of(error.details)}


class Connection:
    """One AppendRows bidirectional stream: a request is sent when the previous one was answered."""

    def __init__(self, client):
        self.client = client
        self.requests = queue.Queue()
        self.responses = None
        self.broken = None

    def send(self, request):
        if self.broken is not None:
            return self.broken
        self.requests.put(request)
        try:
            if self.responses is None:
                # api_core reads the first response as the call starts: the first request goes first.
                self.responses = self.client.append_rows(requests=iter(self.requests.get, None))
            response = next(self.responses)
        except api_exceptions.GoogleAPICallError as error:
            self.broken = failed(error)
            return self.broken
        if response.error.code != 0:
            error = response.error
            return {"code": next(c for c in grpc.StatusCode if c.value[0] == error.code).name,
                    "storage_error": storage_error_of(error.details),
                    "row_errors": [int(e.index) for e in response.row_errors]}
        result = response.append_result
        has_offset = "offset" in result and result._pb.HasField("offset")
        return {"code": "OK", "storage_error": None, "offset": result.offset if has_offset else None,
                "row_errors": []}

    def close(self):
        self.requests.put(None)


def commit_time(stream):
    if not stream._pb.HasField("commit_time"):
        return "empty"
    if stream._pb.commit_time == stream._pb.create_time:
        return "create_time"
    return "set"


def run_case(client, rest_url, suite, case_no, case, prefix):
    tables = {t: table_path(prefix, case_no, t) for t in case.get("tables", ["a"])}
    for path in tables.values():
        create_table(rest_url, path, suite["columns"])
    first = next(iter(tables.values()))
    streams = {}
    connections = {}

    def stream_name(ref):
        if ref in streams:
            return streams[ref]
        if ref == "_default":
            return first + "/streams/_default"
        if ref.endswith("/_default"):
            return tables[ref.split("/")[0]] + "/streams/_default"
        return first + "/streams/" + ref

    observed = []
    for step in case["steps"]:
        op = step["op"]
        try:
            if op == "create_stream":
                parent = tables.get(step.get("table", "a"), first.rsplit("_", 1)[0] + "_" + step.get("table", "a"))
                created = client.create_write_stream(
                    parent=parent, write_stream=types.WriteStream(type_=types.WriteStream.Type[step["type"]]))
                streams[step["as"]] = created.name
                obs = {"code": "OK", "storage_error": None, "type": created.type_.name, "commit_time": commit_time(created)}
            elif op == "get":
                got = client.get_write_stream(name=stream_name(step["stream"]))
                obs = {"code": "OK", "storage_error": None, "type": got.type_.name, "commit_time": commit_time(got)}
            elif op == "finalize":
                done = client.finalize_write_stream(name=stream_name(step["stream"]))
                obs = {"code": "OK", "storage_error": None, "row_count": done.row_count}
            elif op == "flush":
                flushed = client.flush_rows(request={"write_stream": stream_name(step["stream"]), "offset": step["offset"]})
                obs = {"code": "OK", "storage_error": None, "offset": flushed.offset}
            elif op == "commit":
                committed = client.batch_commit_write_streams(
                    request={"parent": first, "write_streams": [stream_name(s) for s in step["streams"]]})
                obs = {"code": "OK", "storage_error": None,
                       "commit_time": "set" if committed._pb.HasField("commit_time") else "empty",
                       "stream_errors": [types.StorageError.StorageErrorCode(e.code).name
                                         for e in committed.stream_errors]}
            elif op == "append":
                name = step.get("connection", "main")
                if name not in connections:
                    connections[name] = Connection(client)
                request = types.AppendRowsRequest(write_stream=stream_name(step["stream"]))
                proto_data = types.AppendRowsRequest.ProtoData()
                if step.get("schema"):
                    proto_data.writer_schema = types.ProtoSchema(
                        proto_descriptor=descriptor(suite["schemas"][step["schema"]]))
                proto_data.rows = types.ProtoRows(serialized_rows=[bytes.fromhex(r) for r in step["rows"]])
                request.proto_rows = proto_data
                if "offset" in step:
                    request.offset = step["offset"]
                obs = connections[name].send(request)
            else:
                raise ValueError(f"unknown op {op}")
        except api_exceptions.GoogleAPICallError as error:
            obs = failed(error)
        observed.append(obs)
    for connection in connections.values():
        connection.close()
    return observed


def main():
    cases_file, grpc_address, rest_url, prefix = sys.argv[1:5]
    with open(cases_file) as f:
        suite = json.load(f)
    channel = grpc.insecure_channel(grpc_address)
    client = BigQueryWriteClient(transport=BigQueryWriteGrpcTransport(channel=channel))
    results = [run_case(client, rest_url, suite, i, case, prefix) for i, case in enumerate(suite["cases"])]
    json.dump(results, sys.stdout, indent=1)
    channel.close()


if __name__ == "__main__":
    main()
