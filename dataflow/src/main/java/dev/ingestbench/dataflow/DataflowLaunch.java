package dev.ingestbench.dataflow;

import com.google.api.services.dataflow.model.FlexTemplateRuntimeEnvironment;
import com.google.api.services.dataflow.model.LaunchFlexTemplateParameter;
import com.google.api.services.dataflow.model.LaunchFlexTemplateRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One Flex Template launch: the job's name, the template spec, the pipeline's parameters and the
 * workers. The same launch becomes the Dataflow API request and, for {@code --dry-run}, the
 * equivalent {@code gcloud dataflow flex-template run} command.
 *
 * @param role what the job is in the run: a scenario job's name, {@code backlog} or {@code live}
 * @param workers a fixed pool (num = max workers); null: Dataflow's autoscaling default
 */
public record DataflowLaunch(
    String role,
    String jobName,
    String template,
    Map<String, String> parameters,
    Integer workers,
    String machineType,
    boolean streamingEngine,
    String tempLocation,
    String stagingLocation) {

  public DataflowLaunch {
    parameters = new LinkedHashMap<>(parameters);
  }

  public LaunchFlexTemplateRequest request() {
    FlexTemplateRuntimeEnvironment environment =
        new FlexTemplateRuntimeEnvironment()
            .setTempLocation(tempLocation)
            .setStagingLocation(stagingLocation);
    if (workers != null) {
      environment.setNumWorkers(workers).setMaxWorkers(workers);
    }
    if (machineType != null) {
      environment.setMachineType(machineType);
    }
    if (streamingEngine) {
      environment.setEnableStreamingEngine(true);
    }
    return new LaunchFlexTemplateRequest()
        .setLaunchParameter(
            new LaunchFlexTemplateParameter()
                .setJobName(jobName)
                .setContainerSpecGcsPath(template)
                .setParameters(new LinkedHashMap<>(parameters))
                .setEnvironment(environment));
  }

  /** The same launch as a {@code gcloud} command line. */
  public String gcloud(String project, String region) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "gcloud",
                "dataflow",
                "flex-template",
                "run",
                jobName,
                "--project=" + project,
                "--region=" + region,
                "--template-file-gcs-location=" + template,
                "--temp-location=" + tempLocation,
                "--staging-location=" + stagingLocation));
    if (workers != null) {
      args.add("--num-workers=" + workers);
      args.add("--max-workers=" + workers);
    }
    if (machineType != null) {
      args.add("--worker-machine-type=" + machineType);
    }
    if (streamingEngine) {
      args.add("--enable-streaming-engine");
    }
    List<String> pairs = new ArrayList<>();
    parameters.forEach((k, v) -> pairs.add(k + "=" + v));
    // gcloud's alternate delimiter syntax (^;^) keeps values with commas intact.
    boolean commaInValue = pairs.stream().anyMatch(p -> p.contains(","));
    args.add(
        "--parameters="
            + (commaInValue ? "^;^" + String.join(";", pairs) : String.join(",", pairs)));
    return ShellQuote.line(args);
  }
}
