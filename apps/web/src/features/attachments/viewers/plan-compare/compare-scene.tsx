import { useEffect, useMemo, useRef } from 'react';
import { Canvas, useThree } from '@react-three/fiber';
import { DoubleSide, type BufferGeometry, type PerspectiveCamera } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { frameBox, unionBox } from '../stl-scene';
import { afterNextPaint, applyFraming } from '../frame-camera';
import { VIEWER_CANVAS_PROPS } from '../viewer-canvas';
import type { CameraLink, CameraPose } from './camera-sync';

export interface CompareModel {
  key: string;
  geometry: BufferGeometry;
  /** A flat colour, or the geometry's own per-vertex colours (the deviation map). */
  color: string | 'vertex';
  opacity: number;
  visible: boolean;
  /** Drawn before the others (the scans under the plan). */
  under?: boolean;
}

const poseOf = (camera: PerspectiveCamera, controls: OrbitControls): CameraPose => ({
  position: camera.position.toArray(),
  target: controls.target.toArray(),
  up: camera.up.toArray(),
});

/** Lights, models and orbit controls of one view; frames `frameOn` on load and on reset. */
function Scene(props: {
  models: CompareModel[];
  frameOn: (BufferGeometry | null)[];
  frameKey: string;
  viewId: string;
  link?: CameraLink;
  onDrawn: () => void;
}) {
  const camera = useThree((state) => state.camera) as PerspectiveCamera;
  const gl = useThree((state) => state.gl);
  const invalidate = useThree((state) => state.invalidate);
  const size = useThree((state) => state.size);
  const controls = useMemo(() => {
    const created = new OrbitControls(camera, gl.domElement);
    created.enablePan = true;
    created.screenSpacePanning = true;
    // Arrow keys pan the focused view (the canvas takes the focus with Tab).
    created.listenToKeyEvents(gl.domElement);
    return created;
  }, [camera, gl]);
  const { link, viewId } = props;

  useEffect(() => {
    const changed = () => {
      invalidate();
      link?.moved(viewId, poseOf(camera, controls));
    };
    controls.addEventListener('change', changed);
    const leave = link?.join(viewId, (pose) => {
      camera.position.fromArray(pose.position);
      camera.up.fromArray(pose.up);
      controls.target.fromArray(pose.target);
      controls.update();
      invalidate();
    });
    return () => {
      leave?.();
      controls.removeEventListener('change', changed);
      controls.stopListenToKeyEvents();
      controls.dispose();
    };
  }, [camera, controls, invalidate, link, viewId]);

  const { frameOn, frameKey, onDrawn } = props;
  useEffect(() => {
    const box = unionBox(frameOn.map((geometry) => geometry?.boundingBox));
    if (!box) return;
    const framing = frameBox(box, camera.fov, size.width / Math.max(size.height, 1));
    applyFraming(camera, controls, framing);
    invalidate();
    return afterNextPaint(onDrawn);
    // Framing follows the loaded set and the reset button, not every toggle.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [frameKey]);

  return (
    <>
      <ambientLight intensity={0.55} />
      <hemisphereLight args={['#ffffff', '#667788', 0.6]} />
      <directionalLight position={[1, 1.5, 2]} intensity={1} />
      <directionalLight position={[-1.5, -1, -2]} intensity={0.5} />
      {props.models.map((model) => (
        <mesh
          key={model.key}
          geometry={model.geometry}
          visible={model.visible}
          renderOrder={model.under ? 0 : model.opacity < 1 ? 2 : 1}
        >
          <meshStandardMaterial
            // A new material when the kind of colour changes: three compiles it once per kind.
            key={model.color === 'vertex' ? 'vertex' : 'flat'}
            color={model.color === 'vertex' ? '#ffffff' : model.color}
            vertexColors={model.color === 'vertex'}
            roughness={0.6}
            metalness={0.05}
            side={DoubleSide}
            transparent={model.opacity < 1}
            opacity={model.opacity}
            depthWrite={model.opacity >= 1}
          />
        </mesh>
      ))}
    </>
  );
}

/**
 * One 3D view of the compare viewer. The canvas carries `data-testid="compare-canvas"`,
 * `data-view` and `data-loaded="true"` once its models are drawn (the end-to-end journey reads
 * its pixels then).
 */
export function CompareCanvas(props: {
  view: string;
  label: string;
  models: CompareModel[];
  frameOn: (BufferGeometry | null)[];
  /** Changes when the view must frame again and report a new drawing. */
  frameKey: string;
  /** Set when everything this view waits for is there. */
  ready: boolean;
  link?: CameraLink;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const { ready } = props;
  useEffect(() => {
    if (canvas.current && !ready) canvas.current.dataset.loaded = 'false';
  }, [ready, props.frameKey]);
  const markDrawn = () => {
    if (canvas.current && ready) canvas.current.dataset.loaded = 'true';
  };
  return (
    <Canvas
      ref={canvas}
      {...VIEWER_CANVAS_PROPS}
      onCreated={({ gl }) => {
        gl.domElement.dataset.testid = 'compare-canvas';
        gl.domElement.dataset.view = props.view;
        gl.domElement.dataset.loaded = 'false';
        gl.domElement.tabIndex = 0;
      }}
      aria-label={props.label}
      role="img"
    >
      <Scene
        models={props.models}
        frameOn={props.frameOn}
        frameKey={`${props.frameKey}#${ready}`}
        viewId={props.view}
        link={props.link}
        onDrawn={markDrawn}
      />
    </Canvas>
  );
}
