package dev.ingestbench.consumer.dataflow;

import com.google.api.services.dataflow.model.DataflowPackage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.beam.runners.dataflow.util.PackageUtil;
import org.apache.beam.runners.dataflow.util.Stager;
import org.apache.beam.sdk.options.PipelineOptions;

/** Names the files Dataflow would stage without uploading them: translation tests run offline. */
public final class OfflineStager implements Stager {
  /**
   * What the last translation staged as a file, by name: Runner v2 stages its pipeline proto so.
   */
  public static final Map<String, byte[]> STAGED = new ConcurrentHashMap<>();

  @Override
  public List<DataflowPackage> stageFiles(List<PackageUtil.StagedFile> filesToStage) {
    return filesToStage.stream()
        .map(
            f ->
                new DataflowPackage()
                    .setName(f.getDestination())
                    .setLocation("gs://offline/" + f.getDestination()))
        .toList();
  }

  @Override
  public DataflowPackage stageToFile(byte[] bytes, String baseName) {
    STAGED.put(baseName, bytes);
    return new DataflowPackage().setName(baseName).setLocation("gs://offline/" + baseName);
  }

  /** Instantiated by Beam from {@code --stagerClass}. */
  public static OfflineStager fromOptions(PipelineOptions options) {
    return new OfflineStager();
  }
}
